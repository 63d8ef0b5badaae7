ssh:
  key: |
    -----BEGIN KEY-----
    abc
    -----END KEY-----
motd: Welcome
nums:
  - 1
  - 2
empty: ""
