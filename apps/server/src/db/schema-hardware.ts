import { bigint, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, ownedBy } from './columns.js';
import { hardware } from './schema-core.js';


/** Firmware files uploaded for one hardware unit (.gbm0 Plinth firmware, .gbm4 user firmware). */
export const firmware = pgTable(
  'firmware',
  {
    id: id(),
    hardwareId: ownedBy('hardware_id', () => hardware.id),
    name: text('name').notNull(),
    version: text('version').notNull(),
    /** Name of the file in the file store (DATA_DIR/firmware/<hardwareId>/). */
    fileName: text('file_name').notNull(),
    /** Bytes. */
    fileSize: bigint('file_size', { mode: 'number' }).notNull(),
    /** Hex SHA-256 of the file, sent to the board to check its download. */
    sha256: text('sha256').notNull(),
    isPlinthFirmware: boolean('is_plinth_firmware').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('firmware_hardware_idx').on(t.hardwareId)],
);

/** Every firmware update pushed to a board, and its outcome as the board reported it. */
export const firmwareHistory = pgTable(
  'firmware_history',
  {
    id: id(),
    hardwareId: ownedBy('hardware_id', () => hardware.id),
    firmwareId: uuid('firmware_id').references(() => firmware.id, { onDelete: 'set null' }),
    isPlinthFirmware: boolean('is_plinth_firmware').notNull(),
    name: text('name').notNull(),
    version: text('version').notNull(),
    /** The command's correlation id, which the board's progress messages carry. */
    correlationId: text('correlation_id').notNull(),
    status: text('status', { enum: ['pending', 'applied', 'failed'] }).notNull().default('pending'),
    error: text('error'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('firmware_history_hardware_idx').on(t.hardwareId), index('firmware_history_correlation_idx').on(t.correlationId)],
);

/** Each online/offline change of a board and why (connect, will, timeout, disconnect, revoked). */
export const hardwareConnectionHistory = pgTable(
  'hardware_connection_history',
  {
    id: id(),
    hardwareId: ownedBy('hardware_id', () => hardware.id),
    online: boolean('online').notNull(),
    reason: text('reason').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('hardware_connection_history_hw_idx').on(t.hardwareId, t.at)],
);
