import { z } from 'zod';

/** The range of PostgreSQL's `integer`, the column type of orders and versions. */
export const INT32_MIN = -2_147_483_648;
export const INT32_MAX = 2_147_483_647;

/**
 * A whole number an `integer` column holds. A larger one (JSON allows any) is refused by
 * validation, naming the field, instead of failing the write ("integer out of range").
 */
export const Int32 = z
  .number()
  .int()
  .min(INT32_MIN, { message: `must be at least ${INT32_MIN}` })
  .max(INT32_MAX, { message: `must be at most ${INT32_MAX}` });
