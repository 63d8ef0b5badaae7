# Everything lands under the minion's own cache folder, so that several minions on one machine (the demo's
# sandbox, the e2e tests) never write the same files and nothing outside the sandbox is touched.
{% set root = opts['cachedir'] ~ '/examples' %}
{% set port = salt['pillar.get']('demo:port', 8000) %}

demo_config:
  file.managed:
    - name: {{ root }}/etc/app.conf
    - source: salt://demo/app.conf.j2
    - template: jinja
    - makedirs: True
    - mode: 644
    - context:
        root: {{ root }}

demo_service_program:
  file.managed:
    - name: {{ root }}/bin/demo-service
    - source: salt://demo/demo-service.sh
    - makedirs: True
    - mode: 755

# (re)starts the service-like program only when its config or the program itself changed
demo_service_restart:
  cmd.run:
    - name: {{ root }}/bin/demo-service restart {{ root }}
    - onchanges:
      - file: demo_config
      - file: demo_service_program

# announces the port once per new value: 'watch' runs it when the config changed, 'unless' keeps it quiet
# when the port it announced last is still the one configured
demo_port_announced:
  cmd.run:
    - name: echo {{ port }} > {{ root }}/run/announced-port && echo "demo now listens on {{ port }}"
    - unless: test "$(cat {{ root }}/run/announced-port 2>/dev/null)" = "{{ port }}"
    - watch:
      - file: demo_config
    - require:
      - cmd: demo_service_restart
