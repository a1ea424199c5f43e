import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

/**
 * The shape of most writes: once the server agreed, the queries that show what changed are read
 * again, and the mutation ends only when they have been, so a dialog closes on fresh data.
 * `refreshKeys` names them from the mutation's input.
 */
export function useRefreshingMutation<TInput, TResult>(mutationFn: (input: TInput) => Promise<TResult>, refreshKeys: (input: TInput) => QueryKey[]) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: TInput) => mutationFn(input),
    onSuccess: (_result, input) => Promise.all(refreshKeys(input).map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
