#!/bin/sh
# The tree under $1 that every run of cases.sls starts from (FileStatesVsSaltTest), for Salt and jsalt alike.
set -e
T="$1"
rm -rf "$T" "$2"
mkdir -p "$T"; mkdir -p $T/dir_existing/sub $T/dir_clean/keep $T/dir_clean/junkdir $T/rec_clean $T/lines $T/links/adir
printf 'old\n' > $T/managed_existing
printf 'old\n' > $T/managed_backup
printf 'keep me\n' > $T/managed_noreplace
chmod 600 $T/managed_noreplace
printf 'x\n' > $T/dir_existing/f
printf 'y\n' > $T/dir_existing/sub/g
chmod 700 $T/dir_existing/sub
touch $T/dir_clean/junk $T/dir_clean/keep/k $T/dir_clean/keep.txt $T/dir_clean/junkdir/x
printf 'stale\n' > $T/rec_clean/stale
printf 'a\n' > $T/rec_clean/a.conf
printf 'first\n  indented\nlast\n' > $T/lines/ins_after
printf 'first\nlast\n' > $T/lines/ins_end
printf 'first\nlast\n' > $T/lines/ins_start
printf 'first\nold\nlast\n' > $T/lines/replace
printf 'first\ndrop\nlast\n' > $T/lines/delete
printf 'first\nlast\n' > $T/lines/ensure_after
printf 'first\nlast\n' > $T/lines/ensure_before
printf 'a\nlast\n' > $T/lines/ensure_between
printf 'foo=1\nbar=2\n' > $T/replace_me
printf 'foo=1\n' > $T/replace_append
printf 'foo=1\n' > $T/replace_none
printf 'one\ntwo   three\n' > $T/append_me
printf 'no newline' > $T/append_nonl
printf 'file\n' > $T/links/afile
ln -s $T/wrong $T/links/retarget
ln -s $T/managed_existing $T/links/present
printf 'x\n' > $T/links/blocker
printf 'own me\n' > $T/m_own
printf 'mode me\n' > $T/m_mode
printf 'diff me\n' > $T/m_quiet
ln -s $T/m_own $T/links/chown
printf 'Foo=1\nfoo=2\nfoo=3\n' > $T/replace_flags
printf 'x=1\n' > $T/replace_prepend
printf 'alpha\nbeta\n' > $T/append_regex
mkdir -p "$T"; mkdir -p $T/dir_ignore/sub; touch $T/dir_ignore/f
printf 'a\nb\n' > $T/lines/nomatch
printf 'old\n' > $T/m_src_existing
printf 'perm\n' > $T/m_noreplace_test
chmod 600 $T/m_noreplace_test
printf 'file in the way\n' > $T/rec_is_file
printf 'a\n' > $T/lines/backup_me
mkdir -p "$T"; mkdir -p $T/dir_req/keep; touch $T/dir_req/junk
printf 'target content\n' > $T/link_target
ln -s $T/link_target $T/managed_link
printf 'name = alice\nname = bob\n' > $T/replace_groups
printf 'block one\nblock two\nother\n' > $T/append_multi
printf 'f\n' > $T/dir_force_file
printf 'f\n' > $T/dir_backup_file
printf 'b\n' > $T/dir_backup_taken.bak
printf 'f\n' > $T/dir_backup_taken
mkdir -p $T/realdir; ln -s $T/realdir $T/dir_link
ln -s $T/realdir $T/dir_link_force
printf 'f\n' > $T/dir_plain_file
printf 'copy me\n' > $T/copy_src
chmod 640 $T/copy_src
printf 'other\n' > $T/copy_exists
mkdir -p $T/copy_dir_src/in; printf 'x\n' > $T/copy_dir_src/in/f
printf 'move me\n' > $T/rename_src
printf 'there\n' > $T/rename_exists
printf 'old\n' > $T/touch_existing
printf 'color = red\nsize = 2\n#already = 1\n' > $T/comment_me
printf '#color = red\n# size = 2\nplain = 1\n' > $T/uncomment_me
printf 'a = 1\n' > $T/comment_none
printf 'top\n#-- start managed zone --\nold block\n#-- end managed zone --\nbottom\n' > $T/block_existing
printf 'top\nbottom\n' > $T/block_append
printf 'top\nbottom\n' > $T/block_prepend
printf 'top\n[section]\nbottom\n' > $T/block_after
printf 'top\nbottom\n' > $T/block_none
printf 'top\n#-- start managed zone --\nnever ends\n' > $T/block_open
printf 'a\n# BEGIN x\ny\n# END x\n' > $T/block_custom
printf 'body\n' > $T/prepend_me
printf 'one\nbody\n' > $T/prepend_some
printf '# header\nbody\n' > $T/prepend_header
