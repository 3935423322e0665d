// Reads an application's JSON of rows ([{"item": ..., "id": ...}, ...]) on
// stdin with JSON.parse, as a browser or a Node.js service would, and prints
// "item<TAB>id<TAB>type" per row: the id as JavaScript has it after parsing
// (String(id)), and whether it was a string or a number.
let text = '';
process.stdin.on('data', (d) => { text += d; });
process.stdin.on('end', () => {
	for (const row of JSON.parse(text))
		console.log([row.item, String(row.id), typeof row.id].join('\t'));
});
