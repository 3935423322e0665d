// node-postgres (pg) against a table keyed by the uid type, and the same
// ids in a bigint column.  Connects through the PG* environment variables,
// inserts ROWS rows, reads them back every way below and prints one JSON
// object of counts (how many ids came back, how many exactly as the
// database's id::text, of which JavaScript type).
//
//   node id_type.js ROWS SQLJSON
//
// SQLJSON is 1 when the server has the SQL/JSON constructors (JSON_OBJECT,
// JSON_ARRAY, JSON_ARRAYAGG, JSON_OBJECTAGG).  Every JSON text is read with
// JSON.parse, as a browser or a Node service reads an API's response.
'use strict';
const { Client } = require('pg');

async function main() {
	const rows = Number(process.argv[2]);
	const sqljson = process.argv[3] === '1';
	const client = new Client();
	await client.connect();
	const out = {};

	// inserts: the ids that RETURNING gives back, batch by batch
	out.returning = { n: 0, strings: 0 };
	const returned = [];
	for (let done = 0; done < rows; done += 1000) {
		const items = [];
		for (let i = done; i < Math.min(rows, done + 1000); i++) items.push('item ' + i);
		const r = await client.query(
			'INSERT INTO orders (item) SELECT unnest($1::text[]) RETURNING id, item', [items]);
		for (const row of r.rows) {
			out.returning.n++;
			if (typeof row.id === 'string') out.returning.strings++;
			returned.push([row.item, row.id]);
		}
	}
	await client.query('INSERT INTO orders_bigint SELECT id, item FROM orders');

	// the truth: the database's own text of every id, by item
	const truth = new Map();
	for (const row of (await client.query('SELECT item, id::text AS t FROM orders')).rows)
		truth.set(row.item, row.t);
	out.returning.exact = returned.filter(([item, id]) => truth.get(item) === id).length;

	// compares a list of [item, id as JavaScript gave it] with the truth
	const check = (pairs) => ({
		n: pairs.length,
		exact: pairs.filter(([item, id]) => truth.get(item) === String(id)).length,
		strings: pairs.filter(([, id]) => typeof id === 'string').length,
		numbers: pairs.filter(([, id]) => typeof id === 'number').length,
	});

	// the column itself: node-postgres returns a type it has no parser for
	// (uid's OID) as the text the server sent
	out.column = check((await client.query('SELECT item, id FROM orders')).rows.map((r) => [r.item, r.id]));
	out.column_type = (await client.query('SELECT id FROM orders LIMIT 1')).rows[0].id.constructor.name;

	// JSON, parsed by JSON.parse: the uid column, then the bigint one
	const jsonText = async (sql) => JSON.parse((await client.query(sql)).rows[0].j);
	const aggregated = async (table) =>
		(await jsonText(`SELECT json_agg(o)::text AS j FROM ${table} o`)).map((o) => [o.item, o.id]);
	out.json_agg = check(await aggregated('orders'));
	out.json_agg_bigint = check(await aggregated('orders_bigint'));
	// node-postgres parses json columns itself, with JSON.parse too
	out.json_agg_parsed_by_pg = check(
		(await client.query('SELECT json_agg(o) AS j FROM orders o')).rows[0].j.map((o) => [o.item, o.id]));

	// every JSON producer: one value per row ...
	const perRow = {
		to_json: 'to_json(id)',
		to_jsonb: 'to_jsonb(id)',
		row_to_json: 'row_to_json(o)',
		json_build_object: "json_build_object('id', id)",
		jsonb_build_object: "jsonb_build_object('id', id)",
		json_build_array: 'json_build_array(id)',
	};
	if (sqljson) {
		perRow.JSON_OBJECT = "JSON_OBJECT('id': id)";
		perRow.JSON_ARRAY = 'JSON_ARRAY(id)';
	}
	const idOf = (v) => (Array.isArray(v) ? v[0] : v !== null && typeof v === 'object' ? v.id : v);
	for (const [name, expr] of Object.entries(perRow)) {
		const r = await client.query(`SELECT item, (${expr})::text AS j FROM orders o`);
		out[name] = check(r.rows.map((row) => [row.item, idOf(JSON.parse(row.j))]));
	}
	// ... and the aggregates, over the whole table
	const arrays = { jsonb_agg: 'jsonb_agg(o)' };
	if (sqljson) arrays.JSON_ARRAYAGG = "JSON_ARRAYAGG(JSON_OBJECT('item': item, 'id': id))";
	for (const [name, expr] of Object.entries(arrays))
		out[name] = check((await jsonText(`SELECT (${expr})::text AS j FROM orders o`)).map((o) => [o.item, o.id]));
	const objects = { json_object_agg: 'json_object_agg(item, id)', jsonb_object_agg: 'jsonb_object_agg(item, id)' };
	if (sqljson) objects.JSON_OBJECTAGG = 'JSON_OBJECTAGG(item : id)';
	for (const [name, expr] of Object.entries(objects))
		out[name] = check(Object.entries(await jsonText(`SELECT (${expr})::text AS j FROM orders o`)));

	// lookups by the string an API got: an untyped parameter
	let found = 0;
	const sample = [...truth.entries()].filter((_, i) => i % 100 === 0);
	for (const [item, id] of sample) {
		const r = await client.query('SELECT item FROM orders WHERE id = $1', [id]);
		if (r.rows.length === 1 && r.rows[0].item === item) found++;
	}
	out.lookup = { n: sample.length, found };
	// and what the number that JSON.parse made of a bigint finds: the row,
	// no row, or another row
	const byNumber = { n: sample.length, found: 0, none: 0, other: 0 };
	for (const [item, id] of sample) {
		const r = await client.query('SELECT item FROM orders WHERE id = $1', [JSON.parse(id)]);
		if (r.rows.length === 0) byNumber.none++;
		else if (r.rows[0].item === item) byNumber.found++;
		else byNumber.other++;
	}
	out.lookup_by_number = byNumber;

	await client.end();
	console.log(JSON.stringify(out));
}

main().catch((e) => {
	console.error(e.stack || String(e));
	process.exit(1);
});
