// Strict ISO 8601 reading for what clients send (TransactionTimestamp) and what a config holds
// (subscriberExpires). Date.parse is lenient in both directions: it rolls 2025-02-30 over to March
// and its accepted forms vary, so the calendar is checked here.

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|([+-])(\d{2}):?(\d{2})))?$/;

const DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : (DAYS[month - 1] ?? 0);
}

/** Date.UTC, without its mapping of years 0-99 to 1900-1999. */
function utc(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  d.setUTCHours(hour, minute, second, ms);
  return d.getTime();
}

/**
 * Epoch milliseconds of an ISO 8601 date (`2030-01-31`, read as midnight UTC) or date-time with `Z`
 * or a UTC offset (`2025-01-31T12:00:00+02:00`); undefined for anything else, including dates that
 * do not exist (`2025-02-30`, `2025-13-01`, `24:00`). With `requireTime`, a date alone is refused.
 */
export function parseIsoTime(text: string, requireTime = false): number | undefined {
  const m = ISO.exec(text);
  if (m === null) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  if (m[4] === undefined) return requireTime ? undefined : utc(year, month, day);
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  let offsetMinutes = 0;
  if (m[9] !== undefined) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return undefined;
    offsetMinutes = (m[9] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const millis = Math.floor(Number(`0.${m[7] ?? '0'}`) * 1000);
  return utc(year, month, day, hour, minute, second, millis) - offsetMinutes * 60_000;
}
