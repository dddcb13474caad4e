import type { Tx } from './index';

/**
 * A statement built once per database rather than on every call, and on PostgreSQL prepared once
 * per connection. Drizzle otherwise builds each statement's SQL anew per call: with the merchant
 * pages' two or three statements, about a tenth of their CPU under load (tests/bench/NOTES.md,
 * section 6). Keyed weakly by the database or transaction it was built on, so it goes with it;
 * in a transaction it is built once for that transaction, as an unprepared statement would be.
 * A placeholder compared with a timestamp column skips the column's own mapping: its value goes
 * in as an ISO string. In an insert's values it is mapped, and goes in as a Date.
 */
export function preparedPer<T>(build: (db: Tx) => T): (db: Tx) => T {
	const built = new WeakMap<Tx, T>();
	return (db) => {
		let statement = built.get(db);
		if (!statement) built.set(db, (statement = build(db)));
		return statement;
	};
}
