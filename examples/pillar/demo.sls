# Rendered on the master for each minion, with that minion's grains; each minion receives its own only.
demo:
  port: 8080
  greeting: Hello from the pillar of {{ grains['id'] }}
