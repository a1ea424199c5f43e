import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

export type DeleteMutationOptions<TInput> = {
  /** The DELETE call. */
  mutationFn: (input: TInput) => Promise<unknown>;
  /** The deleted item's cached record; what is cached under it goes too, unless `exact`. */
  recordKey: (input: TInput) => QueryKey;
  exact?: boolean;
  /** The lists that showed the item. */
  listKeys: (input: TInput) => QueryKey[];
};

/**
 * The shape of every deletion (spec section 4: deleting an item removes it locally): once the
 * server agreed, the item's record leaves the cache at once and the lists that showed it are read
 * again in the background, while the screen moves on.
 */
export function useDeleteMutation<TInput>({ mutationFn, recordKey, exact = false, listKeys }: DeleteMutationOptions<TInput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_answer, input) => {
      queryClient.removeQueries({ queryKey: recordKey(input), exact });
      for (const queryKey of listKeys(input)) void queryClient.invalidateQueries({ queryKey });
    },
  });
}
