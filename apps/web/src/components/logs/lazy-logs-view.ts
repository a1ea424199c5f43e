import { lazyPanel } from '../lazy-panel';

/** The logs tab of the exhibit and hardware screens, loaded when first shown (charts and date pickers with it). */
export const LazyLogsView = lazyPanel(() => import('./LogsView').then((m) => m.LogsView), 'Loading the logs');
