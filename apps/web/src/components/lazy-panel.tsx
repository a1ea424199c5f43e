import { lazy, Suspense, type ComponentType } from 'react';
import { PageState } from './PageState';

/**
 * A tab whose code, with the libraries only it uses (charts, the rich-text editor, the date
 * pickers, the calendar), loads when the tab is first shown, so that a page loads only what it
 * uses (issue 17). The loader names what loads while the chunk arrives.
 */
export function lazyPanel<P extends object>(load: () => Promise<ComponentType<P>>, loadingLabel: string): ComponentType<P> {
  const Panel = lazy(() => load().then((component) => ({ default: component })));
  function LazyPanel(props: P) {
    return (
      <Suspense fallback={<PageState kind="loading" label={loadingLabel} />}>
        <Panel {...props} />
      </Suspense>
    );
  }
  return LazyPanel;
}
