import { CloseButton, TextInput, type TextInputProps } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { KeyboardEvent } from 'react';

export type SearchInputProps = Omit<TextInputProps, 'value' | 'onChange' | 'placeholder'> & {
  value: string;
  onChange: (value: string) => void;
  /** The hint inside the box, also its accessible name unless `aria-label` is given. */
  placeholder: string;
  /** Adds a 'Clear search' button while something is typed. */
  isClearable?: boolean;
};

/** The search box of every list screen: a search icon, and Escape clears it (spec, search). */
export function SearchInput({ value, onChange, placeholder, isClearable, ...rest }: SearchInputProps) {
  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') onChange('');
  };
  return (
    <TextInput
      {...rest}
      placeholder={placeholder}
      aria-label={rest['aria-label'] ?? placeholder}
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      onKeyDown={handleKeyDown}
      leftSection={<IconSearch size={16} aria-hidden />}
      rightSection={isClearable && value ? <CloseButton aria-label="Clear search" onClick={() => onChange('')} /> : undefined}
    />
  );
}
