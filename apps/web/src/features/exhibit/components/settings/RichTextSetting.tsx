import { ActionIcon, Box, Group, Paper } from '@mantine/core';
import { IconBold, IconItalic, IconList, IconListNumbers } from '@tabler/icons-react';
import { EditorContent, useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { useEffect, useRef, type ReactNode } from 'react';
import { RICH_TEXT_DEBOUNCE_MS } from '@plinth/shared';

type Props = {
  label: string;
  value: string;
  disabled: boolean;
  onChange: (html: string) => void;
};

/**
 * A rich-text (HTML) setting. The editor keeps its own document (it parses the HTML into its
 * schema, so nothing is ever injected as markup); edits reach `onChange` one second after the
 * last keystroke (spec 2.4), and a new outside value (Revert, a live update) replaces the text.
 */
export function RichTextSetting({ label, value, disabled, onChange }: Props) {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const editor = useEditor({
    extensions: [StarterKit],
    content: value,
    immediatelyRender: false,
    editable: !disabled,
    editorProps: {
      attributes: {
        'aria-label': label,
        role: 'textbox',
        'aria-multiline': 'true',
      },
    },
    onUpdate: ({ editor: e }) => {
      clearTimeout(timer.current);
      timer.current = setTimeout(() => {
        timer.current = undefined;
        onChangeRef.current(e.isEmpty ? '' : e.getHTML());
      }, RICH_TEXT_DEBOUNCE_MS);
    },
  });

  useEffect(() => () => clearTimeout(timer.current), []);
  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);
  useEffect(() => {
    if (!editor || timer.current !== undefined) return;
    const currentHtml = editor.isEmpty ? '' : editor.getHTML();
    if (currentHtml !== value) editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  const tool = (name: string, icon: ReactNode, run: () => void, active: boolean) => (
    <ActionIcon variant={active ? 'filled' : 'subtle'} size="sm" aria-label={name} aria-pressed={active} disabled={disabled || !editor} onClick={run}>
      {icon}
    </ActionIcon>
  );

  return (
    <Box>
      <Paper withBorder p={4}>
        <Group gap={4} mb={4}>
          {tool('Bold', <IconBold size={14} />, () => editor?.chain().focus().toggleBold().run(), editor?.isActive('bold') ?? false)}
          {tool('Italic', <IconItalic size={14} />, () => editor?.chain().focus().toggleItalic().run(), editor?.isActive('italic') ?? false)}
          {tool(
            'Bullet list',
            <IconList size={14} />,
            () => editor?.chain().focus().toggleBulletList().run(),
            editor?.isActive('bulletList') ?? false,
          )}
          {tool(
            'Numbered list',
            <IconListNumbers size={14} />,
            () => editor?.chain().focus().toggleOrderedList().run(),
            editor?.isActive('orderedList') ?? false,
          )}
        </Group>
        <Box px="xs" style={{ minHeight: 80, opacity: disabled ? 0.6 : 1 }}>
          <EditorContent editor={editor} />
        </Box>
      </Paper>
    </Box>
  );
}
