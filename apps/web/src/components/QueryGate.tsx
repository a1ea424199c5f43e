import type { ReactNode } from 'react';
import { errorText } from '../lib/mutation-state';
import { PageState } from './PageState';

/** The part of a TanStack query result a screen reads to know whether it has its data. */
export type GatedQuery<T> = {
  data: T | undefined;
  isError: boolean;
  error: unknown;
  isFetching: boolean;
  refetch: () => unknown;
};

/** The same query with its data narrowed (`{ hardware: [...] }` to the list), for a component that shows only that part. */
export function pickGated<T, U>(query: GatedQuery<T>, pick: (data: T) => U): GatedQuery<U> {
  const { isError, error, isFetching, refetch } = query;
  return { data: query.data === undefined ? undefined : pick(query.data), isError, error, isFetching, refetch };
}

export type QueryGateProps<T> = {
  query: GatedQuery<T>;
  /** The loader's accessible name ('Loading users'). */
  loading: string;
  /** What failed, as a sentence ('The users of this site cannot be shown right now.'); the server's reason follows it. */
  failed: string;
  /** The screen or list, once its data is read (its own empty text included). */
  children: (data: T) => ReactNode;
};

/**
 * Shows a screen's data only once it is read, so a failed read never looks like an empty list: a
 * loader during the first read, the failure (with the server's reason and Retry) when it failed,
 * else the children with the data. A refetch that fails after a success keeps the data shown.
 */
export function QueryGate<T>({ query, loading, failed, children }: QueryGateProps<T>) {
  if (query.data !== undefined) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <PageState kind="error" label={`${failed} ${errorText(query.error, '')}`.trim()} onRetry={() => void query.refetch()} isRetrying={query.isFetching} />
    );
  }
  return <PageState kind="loading" label={loading} />;
}
