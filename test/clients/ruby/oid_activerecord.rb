# ActiveRecord 6.1 against a table keyed by the uid type, with and without
# the set-up docs/clients.md gives; the protocol of the Python clients: one
# JSON object of the steps and the application's own JSON (to_json) of the
# rows the test seeded.  Steps besides the row's life: whether the adapter
# warned of an unknown OID, and whether each schema dump (schema.rb, and
# with the set-up structure.sql) keeps the table.
#
#   ruby oid_activerecord.rb URL TABLE FIX(0|1) DUMPDIR
require 'json'
require_relative 'oid_steps'
require 'stringio'
require 'active_record'

url, table, fix, dumpdir = ARGV[0], ARGV[1], ARGV[2] == '1', ARGV[3]
step = OidSteps.new

if fix
  # the set-up, in config/initializers/uid.rb: the uid type by its name,
  # which the adapter maps to each database's OID of it as it loads its
  # types; read as a string (what the adapter guesses, without the warning),
  # so that the ids of to_json keep every digit; and a native type of its
  # own, so that schema.rb writes "id: :uid" (not "id: :string", a varchar
  # column once db:schema:load runs it)
  require 'active_record/connection_adapters/postgresql_adapter'
  class UidType < ActiveRecord::Type::String
    def type = :uid
  end
  ActiveRecord::ConnectionAdapters::PostgreSQLAdapter.prepend(Module.new do
    def initialize_type_map(m = type_map)
      super
      m.register_type 'uid', UidType.new
    end

    def native_database_types = super.merge(uid: { name: 'uid' })
  end)
end

warnings = StringIO.new
$stderr = warnings
ActiveRecord::Base.establish_connection(url)

class Order < ActiveRecord::Base
end
Order.table_name = table
Order.reset_column_information

o = step.call('insert') { Order.create!(item: 'activerecord') }
id = step.call('read') { Order.where(item: 'activerecord').pick(:id) }
if id
  found = step.call('lookup') { Order.find(id) }
  step['lookup'] = "found #{found.item}" if found && found.item != 'activerecord'
  step.call('update') { Order.find(id).update!(item: 'activerecord updated') }
  step.call('lookup_where') { Order.where(id: id).first! }
  step.call('delete') { Order.find(id).destroy! }
end
rows = step.call('read_seeded') { Order.where("item LIKE 'seed %'").select(:item, :id).to_a } || []
json = rows.map { |r| { item: r.item, id: r.id } }.to_json

$stderr = STDERR
step['no_oid_warning'] = warnings.string =~ /unknown OID/ ? warnings.string.lines.grep(/unknown OID/).first.chomp : 'ok'

# schema.rb, the default schema format, dumped and loaded into a new
# database (db:schema:dump, db:schema:load): the id's type it builds
conn = ActiveRecord::Base.connection
stored = conn.select_value("SELECT format_type(atttypid, NULL) FROM pg_attribute " \
                           "WHERE attrelid = '#{table}'::regclass AND attname = 'id'")
schema = StringIO.new
ActiveRecord::SchemaDumper.dump(conn, schema)
loaded_db = "loaded_#{table}"
conn.execute("DROP DATABASE IF EXISTS #{loaded_db}")
conn.execute("CREATE DATABASE #{loaded_db}")
ActiveRecord::Base.establish_connection(url.sub(%r{/[^/]*\z}, "/#{loaded_db}"))
step.call('schema_rb') do
  ActiveRecord::Schema.verbose = false
  eval(schema.string.sub(/\A.*?(?=ActiveRecord::Schema)/m, ''))
  got = ActiveRecord::Base.connection.select_value(
    "SELECT format_type(atttypid, NULL) FROM pg_attribute WHERE attrelid = to_regclass('#{table}') AND attname = 'id'")
  raise "schema.rb builds #{table}.id as #{got.inspect}, not #{stored}" unless got == stored
end
ActiveRecord::Base.establish_connection(url)
ActiveRecord::Base.connection.execute("DROP DATABASE #{loaded_db}")
if fix
  # the set-up's other half, in config/application.rb:
  #   config.active_record.schema_format = :sql
  # db:schema:dump then writes db/structure.sql by pg_dump, which keeps the type
  file = File.join(dumpdir, 'structure.sql')
  step.call('structure_sql') do
    ActiveRecord::Tasks::DatabaseTasks.structure_dump(ActiveRecord::Base.connection_db_config, file)
    text = File.read(file)
    raise "no uid column in structure.sql" unless text =~ /CREATE TABLE public\.#{table} \(\s*id public\.uid/
  end
end
puts step.report(json)
