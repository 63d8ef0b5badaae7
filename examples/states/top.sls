# Every minion gets the demo: a config file from a template with pillar values, a service-like program, and
# commands that run only when those change.
base:
  '*':
    - demo
