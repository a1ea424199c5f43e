import { ApiError } from './api-client';

/** What the create dialogs name in their fallback text. */
export type CreatedItemType = 'Organization' | 'Site' | 'Exhibit' | 'Hardware';

/**
 * The error a failed creation shows (spec section 8): the server's message when it sent one, else
 * 'Error: Could not create {type}'. The create mutations throw it, so a dialog shows their error as is.
 */
export function creationError(error: unknown, type: CreatedItemType): Error {
  if (error instanceof ApiError && error.response) return new Error(error.message);
  return new Error(`Error: Could not create ${type}`);
}

/** A create call whose failure answers `creationError`, for a create mutation's `mutationFn`. */
export function withCreationError<TInput, TResult>(create: (input: TInput) => Promise<TResult>, type: CreatedItemType): (input: TInput) => Promise<TResult> {
  return (input) =>
    create(input).catch((error: unknown) => {
      throw creationError(error, type);
    });
}
