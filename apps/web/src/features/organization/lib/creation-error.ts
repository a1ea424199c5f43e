import { ApiError } from '../../../lib/api-client';

/** Creation failures show the server's message, else 'Error: Could not create {type}' (spec section 8). */
export function creationError(error: unknown, type: 'Site' | 'Exhibit' | 'Hardware'): Error {
  if (error instanceof ApiError && error.response) return new Error(error.message);
  return new Error(`Error: Could not create ${type}`);
}
