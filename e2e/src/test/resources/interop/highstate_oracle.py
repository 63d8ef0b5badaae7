# Salt 3006.8's own highstate outputter over cases: argv[1] is a JSON list of {"data": {host: ret}, "opts": {...}};
# prints a JSON list of what salt.output.out_format(data, "highstate", opts) returns for each, colours off.
import json
import sys

import salt.config
import salt.output

base = salt.config.minion_config(None)
base["color"] = False
with open(sys.argv[1], encoding="utf-8") as f:
    cases = json.load(f)
printed = []
for case in cases:
    opts = dict(base)
    opts.update(case.get("opts", {}))
    printed.append(salt.output.out_format(case["data"], "highstate", opts))
json.dump(printed, sys.stdout)
