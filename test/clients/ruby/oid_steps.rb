# The steps of the Ruby clients of TAP 122 (oid_activerecord.rb, oid_pg.rb):
# each step's outcome, "ok" or the client's error in one line, for the
# report {"steps": ..., "json": the application's JSON of the seeded rows}.
require 'json'

class OidSteps
  def initialize
    @steps = {}
  end

  # runs the block as the step NAME: its value, or nil where it raised
  def call(name)
    r = yield
    @steps[name] = 'ok'
    r
  rescue StandardError => e
    @steps[name] = "#{e.class}: #{e.message.lines.first&.chomp}"
    nil
  end

  def []=(name, outcome)
    @steps[name] = outcome
  end

  def report(json) = { steps: @steps, json: json }.to_json
end
