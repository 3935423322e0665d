# ruby-pg's basic type maps against a table keyed by the uid type, with
# binary results, with and without the decoder docs/clients.md gives; the
# protocol of the Python clients: one JSON object of the steps and the
# application's own JSON (to_json) of the rows the test seeded.
#
#   ruby oid_pg.rb URL TABLE FIX(0|1)
require 'json'
require_relative 'oid_steps'
require 'stringio'
require 'pg'

url, table, fix = ARGV[0], ARGV[1], ARGV[2] == '1'
step = OidSteps.new

# the set-up: the uid type's binary form is bigint's; decoded to the id's
# text, as a string, so that to_json keeps every digit
class UidBinaryDecoder < PG::SimpleDecoder
  def decode(bytes, _tuple = nil, _field = nil) = bytes.unpack1('q>').to_s
end

warnings = StringIO.new
$stderr = warnings
conn = PG.connect(url)
registry = PG::BasicTypeRegistry.new.register_default_types
if fix
  registry.register_type(0, 'uid', PG::TextEncoder::String, PG::TextDecoder::String)
  registry.register_type(1, 'uid', nil, UidBinaryDecoder)
end
results = PG::BasicTypeMapForResults.new(conn, registry: registry)
conn.type_map_for_queries = PG::BasicTypeMapForQueries.new(conn, registry: registry)
$stderr = STDERR

# a query whose results are binary, read through the type map
q = ->(sql, *params) { conn.exec_params(sql, params, 1).map_types!(results) }
item = 'ruby-pg'
step.call('insert') { q.call("INSERT INTO #{table} (item) VALUES ($1) RETURNING id", item) }
id = step.call('read') { q.call("SELECT id FROM #{table} WHERE item = $1", item).getvalue(0, 0) }
step['read'] = "a #{id.bytesize}-byte String, not the id's digits" if id.is_a?(String) && id !~ /\A\d+\z/
if id
  found = step.call('lookup') { q.call("SELECT item FROM #{table} WHERE id = $1", id).getvalue(0, 0) }
  step['lookup'] = "found #{found.inspect}" if found && found != item
  step.call('update') { q.call("UPDATE #{table} SET item = item || ' updated' WHERE id = $1", id) }
  step.call('delete') { q.call("DELETE FROM #{table} WHERE id = $1", id) }
end
rows = step.call('read_seeded') { q.call("SELECT item, id FROM #{table} WHERE item LIKE 'seed %'").to_a } || []
json = step.call('json') { rows.to_json } || '[]'
# text results through the same map: warns of a type it does not know
$stderr = warnings
conn.exec("SELECT id FROM #{table} LIMIT 1").map_types!(PG::BasicTypeMapForResults.new(conn, registry: registry)).values
$stderr = STDERR
step['no_warning'] = warnings.string.empty? ? 'ok' : warnings.string.lines.first.chomp
puts step.report(json)
