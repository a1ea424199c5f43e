import { CronExpressionParser } from 'cron-parser';

/** Whether `text` is a cron expression (five fields, or six with seconds). */
export function isCronExpression(text: string): boolean {
  try {
    CronExpressionParser.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The first time after `after` that the expression names, in `timeZone` (IANA; the machine's when unset). */
export function nextCronTime(expression: string, after: Date, timeZone?: string): Date {
  return CronExpressionParser.parse(expression, { currentDate: after, tz: timeZone || undefined }).next().toDate();
}
