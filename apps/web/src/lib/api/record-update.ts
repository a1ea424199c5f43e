import { useMutation, useQueryClient, type QueryKey } from '@tanstack/react-query';

export type RecordUpdateOptions<TRecord, TInput> = {
  /** The PUT that answers the updated record. */
  mutationFn: (input: TInput) => Promise<TRecord>;
  /** The cached record the answer replaces. */
  recordKey: (input: TInput) => QueryKey;
  /** The lists the record appears in, read again after the update. */
  listsKey: QueryKey;
  /** Whether the mutation ends only once the lists are read again (default: they refresh in the background). */
  awaitLists?: boolean;
};

/**
 * The write of one record (an exhibit, a hardware unit): the answer replaces the cached record at
 * once and the lists it appears in are read again.
 */
export function useRecordUpdate<TRecord, TInput>({ mutationFn, recordKey, listsKey, awaitLists = false }: RecordUpdateOptions<TRecord, TInput>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (record, input) => {
      queryClient.setQueryData(recordKey(input), record);
      const lists = queryClient.invalidateQueries({ queryKey: listsKey });
      return awaitLists ? lists : undefined;
    },
  });
}
