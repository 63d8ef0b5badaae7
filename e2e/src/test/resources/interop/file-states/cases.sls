m_contents_new:
  file.managed:
    - name: @T@/m_contents_new
    - contents: hello
    - mode: 640
    - user: nobody
    - group: nogroup
m_contents_numeric:
  file.managed:
    - name: @T@/m_contents_numeric
    - contents:
      - one
      - two
    - user: 65534
    - group: 65534
m_existing:
  file.managed:
    - name: @T@/managed_existing
    - contents: new
m_source_template:
  file.managed:
    - name: @T@/sub/deep/app.conf
    - source: salt://web/app.j2
    - template: jinja
    - context:
        port: 8080
    - makedirs: True
    - mode: 640
m_source_list:
  file.managed:
    - name: @T@/m_source_list
    - source:
      - salt://web/nope.txt
      - salt://web/src.txt
m_source_list_none:
  file.managed:
    - name: @T@/m_source_list_none
    - source:
      - salt://web/nope.txt
      - salt://web/nope2.txt
m_local_hash_ok:
  file.managed:
    - name: @T@/m_local_hash_ok
    - source: @LOCAL@
    - source_hash: sha256=@LOCAL_SHA256@
m_local_hash_bad:
  file.managed:
    - name: @T@/m_local_hash_bad
    - source: @LOCAL@
    - source_hash: sha256=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
m_local_hashfile:
  file.managed:
    - name: @T@/local.txt
    - source: file://@LOCAL@
    - source_hash: salt://web/hashes
m_hash_invalid:
  file.managed:
    - name: @T@/m_hash_invalid
    - source: @LOCAL@
    - source_hash: xyz
m_backup:
  file.managed:
    - name: @T@/managed_backup
    - contents: new
    - backup: minion
m_noreplace:
  file.managed:
    - name: @T@/managed_noreplace
    - replace: False
    - mode: 644
m_empty:
  file.managed:
    - name: @T@/m_empty
m_bad_user:
  file.managed:
    - name: @T@/m_bad_user
    - contents: x
    - user: nosuchuser
m_no_parent:
  file.managed:
    - name: @T@/nowhere/m_no_parent
    - contents: x
d_new:
  file.directory:
    - name: @T@/d_new/a/b
    - makedirs: True
    - user: nobody
    - dir_mode: 750
d_recurse:
  file.directory:
    - name: @T@/dir_existing
    - user: nobody
    - group: 65534
    - dir_mode: 755
    - file_mode: 600
    - recurse:
      - user
      - group
      - mode
d_clean_keep:
  file.managed:
    - name: @T@/dir_clean/keep/k
d_clean:
  file.directory:
    - name: @T@/dir_clean
    - clean: True
    - exclude_pat: "*.txt"
    - require:
      - file: d_clean_keep
d_missing_parent:
  file.directory:
    - name: @T@/nowhere/d
s_new:
  file.symlink:
    - name: @T@/links/new
    - target: @T@/managed_existing
s_retarget:
  file.symlink:
    - name: @T@/links/retarget
    - target: @T@/managed_existing
s_present:
  file.symlink:
    - name: @T@/links/present
    - target: @T@/managed_existing
s_file_force:
  file.symlink:
    - name: @T@/links/afile
    - target: @T@/managed_existing
    - force: True
s_dir_backup:
  file.symlink:
    - name: @T@/links/adir
    - target: @T@/managed_existing
    - backupname: adir.bak
s_blocked:
  file.symlink:
    - name: @T@/links/blocker
    - target: @T@/managed_existing
s_owner:
  file.symlink:
    - name: @T@/links/owned
    - target: @T@/managed_existing
    - user: nobody
    - group: nogroup
s_makedirs:
  file.symlink:
    - name: @T@/links/mk/dir/link
    - target: @T@/managed_existing
    - makedirs: True
l_after:
  file.line:
    - name: @T@/lines/ins_after
    - mode: insert
    - after: ^first
    - content: second
l_end:
  file.line:
    - name: @T@/lines/ins_end
    - mode: insert
    - location: end
    - content: appended
l_start:
  file.line:
    - name: @T@/lines/ins_start
    - mode: insert
    - location: start
    - content: top
l_replace:
  file.line:
    - name: @T@/lines/replace
    - mode: replace
    - match: ^old
    - content: new
l_delete:
  file.line:
    - name: @T@/lines/delete
    - mode: delete
    - content: drop
l_ensure_after:
  file.line:
    - name: @T@/lines/ensure_after
    - mode: ensure
    - after: first
    - content: middle
l_ensure_before:
  file.line:
    - name: @T@/lines/ensure_before
    - mode: ensure
    - before: last
    - content: middle
l_ensure_between:
  file.line:
    - name: @T@/lines/ensure_between
    - mode: ensure
    - after: ^a
    - before: ^last
    - content: b
l_create:
  file.line:
    - name: @T@/lines/created
    - mode: insert
    - location: start
    - content: x
    - create: True
l_missing:
  file.line:
    - name: @T@/lines/missing
    - mode: insert
    - location: end
    - content: x
r_basic:
  file.replace:
    - name: @T@/replace_me
    - pattern: ^foo=.*$
    - repl: foo=2
r_append:
  file.replace:
    - name: @T@/replace_append
    - pattern: ^baz=.*
    - repl: baz=3
    - append_if_not_found: True
r_none:
  file.replace:
    - name: @T@/replace_none
    - pattern: nomatch
    - repl: x
r_missing:
  file.replace:
    - name: @T@/replace_missing
    - pattern: a
    - repl: b
a_text:
  file.append:
    - name: @T@/append_me
    - text:
      - one
      - two three
      - four
a_nonl:
  file.append:
    - name: @T@/append_nonl
    - text: added
a_new:
  file.append:
    - name: @T@/append_new
    - text: hello
a_source:
  file.append:
    - name: @T@/append_me
    - source: salt://web/app.j2
    - context:
        port: 1
rc_new:
  file.recurse:
    - name: @T@/rec_new
    - source: salt://web/tree
    - template: jinja
    - context:
        who: me
    - exclude_pat: "*.bak"
    - file_mode: 640
    - dir_mode: 750
rc_clean:
  file.recurse:
    - name: @T@/rec_clean
    - source: salt://web/tree
    - include_pat: "*.conf"
    - template: jinja
    - context:
        who: you
    - clean: True
rc_bad_source:
  file.recurse:
    - name: @T@/rec_bad
    - source: salt://web/nope
m_own:
  file.managed:
    - name: @T@/m_own
    - user: nobody
m_mode:
  file.managed:
    - name: @T@/m_mode
    - contents: mode me
    - mode: 0600
m_quiet:
  file.managed:
    - name: @T@/m_quiet
    - contents: other
    - show_changes: False
m_nocreate:
  file.managed:
    - name: @T@/m_nocreate
    - contents: x
    - create: False
m_dir_target:
  file.managed:
    - name: @T@/lines
    - contents: x
m_both:
  file.managed:
    - name: @T@/m_both
    - contents: x
    - source: salt://web/src.txt
s_chown:
  file.symlink:
    - name: @T@/links/chown
    - target: @T@/m_own
    - user: nobody
d_ignore:
  file.directory:
    - name: @T@/dir_ignore
    - user: nobody
    - recurse:
      - user
      - ignore_files
d_bad_recurse:
  file.directory:
    - name: @T@/dir_ignore
    - recurse:
      - nonsense
l_nomatch:
  file.line:
    - name: @T@/lines/nomatch
    - mode: replace
    - match: zzz
    - content: q
l_nomode:
  file.line:
    - name: @T@/lines/nomatch
    - content: q
r_flags:
  file.replace:
    - name: @T@/replace_flags
    - pattern: ^foo=\d
    - repl: foo=9
    - count: 1
    - flags:
      - IGNORECASE
      - MULTILINE
r_prepend:
  file.replace:
    - name: @T@/replace_prepend
    - pattern: ^y=.*
    - repl: y=2
    - prepend_if_not_found: True
    - not_found_content: "# y is set below"
    - backup: False
a_regex:
  file.append:
    - name: @T@/append_regex
    - text:
      - al.ha
      - gamma
    - ignore_whitespace: False
m_src_600:
  file.managed:
    - name: @T@/m_src_600
    - source: salt://web/src.txt
    - mode: 600
m_src_existing:
  file.managed:
    - name: @T@/m_src_existing
    - source: salt://web/src.txt
    - user: nobody
    - group: 65534
    - backup: minion
m_local_template:
  file.managed:
    - name: @T@/m_local_template
    - source: @SRV@/web/app.j2
    - template: jinja
    - defaults:
        port: 1
    - context:
        port: 2
m_noreplace_test:
  file.managed:
    - name: @T@/m_noreplace_test
    - replace: False
    - mode: 0640
    - user: nobody
d_mode_arg:
  file.directory:
    - name: @T@/d_mode_arg
    - mode: 700
s_relative:
  file.symlink:
    - name: @T@/links_rel
    - target: lines/backup_me
rc_owned:
  file.recurse:
    - name: @T@/rec_owned
    - source: salt://web/tree
    - user: nobody
    - group: nogroup
    - maxdepth: 0
    - exclude_pat: E@\.bak$
rc_is_file:
  file.recurse:
    - name: @T@/rec_is_file
    - source: salt://web/tree
rc_into_dir:
  file.recurse:
    - name: @T@/dir_req/keep
    - source: salt://web/tree/sub
d_req_clean:
  file.directory:
    - name: @T@/dir_req
    - clean: True
    - require:
      - file: rc_into_dir
l_backup:
  file.line:
    - name: @T@/lines/backup_me
    - mode: ensure
    - after: ^a
    - content: b
    - backup: True
l_owned_create:
  file.line:
    - name: @T@/lines/owned_new
    - mode: insert
    - location: end
    - content: z
    - create: True
    - user: nobody
    - file_mode: 640
a_makedirs:
  file.append:
    - name: @T@/append_dir/new/file
    - text: hi
    - makedirs: True
m_contents_template:
  file.managed:
    - name: @T@/m_contents_template
    - contents: "{% raw %}id={{ grains.os }} x={{ x }}{% endraw %}"
    - template: jinja
    - context:
        x: 5
m_through_link:
  file.managed:
    - name: @T@/managed_link
    - contents: new target content
    - mode: 600
m_dir_mode:
  file.managed:
    - name: @T@/mk/a/b/f
    - contents: x
    - makedirs: True
    - dir_mode: 711
    - mode: 604
r_groups:
  file.replace:
    - name: @T@/replace_groups
    - pattern: ^name = (\w+)$
    - repl: user=\1
a_multi:
  file.append:
    - name: @T@/append_multi
    - text: |
        block one
        block two
l_ensure_location:
  file.line:
    - name: @T@/append_multi
    - mode: ensure
    - after: ^other
    - content: tail
d_silent:
  file.directory:
    - name: @T@/dir_existing
    - dir_mode: 750
    - file_mode: 640
    - recurse:
      - mode
      - silent
m_pillar:
  file.managed:
    - name: @T@/m_pillar
    - contents_pillar: ssh:key
    - mode: 600
m_pillar_delim:
  file.managed:
    - name: @T@/m_pillar_delim
    - contents_pillar: ssh/key
    - contents_delimiter: /
m_pillar_missing:
  file.managed:
    - name: @T@/m_pillar_missing
    - contents_pillar: no:such
m_pillar_empty:
  file.managed:
    - name: @T@/m_pillar_empty
    - contents_pillar: empty
    - allow_empty: False
m_grains:
  file.managed:
    - name: @T@/m_grains
    - contents_grains: os
m_two:
  file.managed:
    - name: @T@/m_two
    - contents: x
    - contents_pillar: motd
m_nonewline:
  file.managed:
    - name: @T@/m_nonewline
    - contents: no newline at the end
    - contents_newline: False
m_skip_verify:
  file.managed:
    - name: @T@/m_skip_verify
    - source: @LOCAL@
    - source_hash: sha256=aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
    - skip_verify: True
d_force_file:
  file.directory:
    - name: @T@/dir_force_file
    - force: True
d_backup:
  file.directory:
    - name: @T@/dir_backup_file
    - backupname: @T@/dir_backup_file.bak
d_backup_taken:
  file.directory:
    - name: @T@/dir_backup_taken
    - backupname: @T@/dir_backup_taken.bak
d_link_allowed:
  file.directory:
    - name: @T@/dir_link
d_link_refused:
  file.directory:
    - name: @T@/dir_link
    - allow_symlink: False
d_link_force:
  file.directory:
    - name: @T@/dir_link_force
    - force: True
d_plain_file:
  file.directory:
    - name: @T@/dir_plain_file
p_exists:
  file.exists:
    - name: @T@/copy_src
p_exists_not:
  file.exists:
    - name: @T@/nothing_here
p_missing:
  file.missing:
    - name: @T@/nothing_here
p_missing_not:
  file.missing:
    - name: @T@/copy_src
t_new:
  file.touch:
    - name: @T@/touched_new
t_makedirs:
  file.touch:
    - name: @T@/touch_dir/sub/f
    - makedirs: True
t_times:
  file.touch:
    - name: @T@/touch_existing
    - atime: 1700000000
    - mtime: 1700000000
c_new:
  file.copy:
    - name: @T@/copy_new
    - source: @T@/copy_src
c_owned:
  file.copy:
    - name: @T@/copy_owned
    - source: @T@/copy_src
    - user: nobody
    - mode: 600
c_exists:
  file.copy:
    - name: @T@/copy_exists
    - source: @T@/copy_src
c_force:
  file.copy:
    - name: @T@/copy_exists
    - source: @T@/copy_src
    - force: True
c_dir:
  file.copy:
    - name: @T@/copy_dir_dest
    - source: @T@/copy_dir_src
c_makedirs:
  file.copy:
    - name: @T@/copy_deep/a/b
    - source: @T@/copy_src
    - makedirs: True
c_nosource:
  file.copy:
    - name: @T@/copy_x
    - source: @T@/no_source
rn_move:
  file.rename:
    - name: @T@/renamed
    - source: @T@/rename_src
rn_exists:
  file.rename:
    - name: @T@/rename_exists
    - source: @T@/copy_src
rn_gone:
  file.rename:
    - name: @T@/renamed2
    - source: @T@/nothing_here
cm_color:
  file.comment:
    - name: @T@/comment_me
    - regex: ^color =
cm_already:
  file.comment:
    - name: @T@/comment_me
    - regex: ^already
cm_missing:
  file.comment:
    - name: @T@/comment_none
    - regex: ^nothing
cm_ignore:
  file.comment:
    - name: @T@/comment_none
    - regex: ^nothing
    - ignore_missing: True
cm_semicolon:
  file.comment:
    - name: @T@/comment_me
    - regex: ^size
    - char: ";"
    - backup: False
un_color:
  file.uncomment:
    - name: @T@/uncomment_me
    - regex: ^color
un_size:
  file.uncomment:
    - name: @T@/uncomment_me
    - regex: size = 2$
un_plain:
  file.uncomment:
    - name: @T@/uncomment_me
    - regex: ^plain
un_missing:
  file.uncomment:
    - name: @T@/uncomment_me
    - regex: ^zzz
b_existing:
  file.blockreplace:
    - name: @T@/block_existing
    - content: |
        new line 1
        new line 2
b_append:
  file.blockreplace:
    - name: @T@/block_append
    - content: appended
    - append_if_not_found: True
    - backup: False
b_prepend:
  file.blockreplace:
    - name: @T@/block_prepend
    - content: prepended
    - prepend_if_not_found: True
b_after:
  file.blockreplace:
    - name: @T@/block_after
    - content: "key = value"
    - insert_after_match: ^\[section\]
b_none:
  file.blockreplace:
    - name: @T@/block_none
    - content: x
b_open:
  file.blockreplace:
    - name: @T@/block_open
    - content: x
b_custom:
  file.blockreplace:
    - name: @T@/block_custom
    - marker_start: "# BEGIN x"
    - marker_end: "# END x"
    - source: salt://web/block.j2
    - context:
        n: 7
b_two:
  file.blockreplace:
    - name: @T@/block_none
    - content: x
    - append_if_not_found: True
    - prepend_if_not_found: True
pp_text:
  file.prepend:
    - name: @T@/prepend_me
    - text:
      - first
      - second
pp_some:
  file.prepend:
    - name: @T@/prepend_some
    - text:
      - one
      - two
pp_header:
  file.prepend:
    - name: @T@/prepend_header
    - text: "# header"
    - header: True
pp_source:
  file.prepend:
    - name: @T@/prepend_me
    - source: salt://web/app.j2
    - context:
        port: 9
pp_new:
  file.prepend:
    - name: @T@/prepend_new
    - text: fresh
