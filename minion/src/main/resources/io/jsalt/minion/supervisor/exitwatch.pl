# jsalt's exit watcher (see ExitWatch.java): one process that waits for the exit of every process the minion
# supervises but did not start itself, with a pidfd per process (pidfd_open, Linux >= 5.3), so no exit is looked
# for by polling. Perl only because perl-base is Essential on Debian and Ubuntu and its syscall() reaches
# pidfd_open without a compiled helper; nothing else is used.
# stdin:  "<pid> <starttime>\n" to watch a process; end of input ends the watcher.
# stdout: "exit <pid>" when it has exited (or had already, or is another process now: its starttime differs),
#         "poll <pid>" when it cannot be watched (out of descriptors, ...), "nosys" when pidfd_open is missing.
use strict;
use warnings;
use POSIX ();
$0 = 'jsalt-exitwatch';
$| = 1;
my $SYS_pidfd_open = 434; # the same number on every architecture (new system calls share one table)
my (%fd_of, %pid_of);
my $buf = '';
my $in = fileno(STDIN);

sub starttime {
    my ($pid) = @_;
    open(my $f, '<', "/proc/$pid/stat") or return '';
    my $s = <$f>;
    close $f;
    return '' unless defined $s;
    my $i = rindex($s, ')');
    return '' if $i < 0;
    my @f = split ' ', substr($s, $i + 2);
    return '' if @f < 20 || $f[0] eq 'Z' || $f[0] eq 'X';
    return $f[19];
}

sub watch {
    my ($pid, $ticks) = @_;
    return if exists $fd_of{$pid};
    my $fd = syscall($SYS_pidfd_open, $pid + 0, 0);
    if ($fd < 0) {
        if ($!{ENOSYS}) { print "nosys\n"; exit 0; }
        print(($!{ESRCH} ? 'exit' : 'poll') . " $pid\n");
        return;
    }
    # opened after the check would race with a reused pid: checked again now that the pidfd holds the process
    if (starttime($pid) ne $ticks) {
        POSIX::close($fd);
        print "exit $pid\n";
        return;
    }
    $fd_of{$pid} = $fd;
    $pid_of{$fd} = $pid;
}

while (1) {
    my $rin = '';
    vec($rin, $in, 1) = 1;
    vec($rin, $_, 1) = 1 for keys %pid_of;
    my $n = select(my $rout = $rin, undef, undef, undef);
    if ($n < 0) {
        next if $!{EINTR};
        die "select: $!";
    }
    for my $fd (keys %pid_of) {
        next unless vec($rout, $fd, 1);
        my $pid = delete $pid_of{$fd};
        delete $fd_of{$pid};
        POSIX::close($fd);
        print "exit $pid\n";
    }
    if (vec($rout, $in, 1)) {
        my $r = sysread(STDIN, $buf, 4096, length $buf);
        exit 0 unless $r;
        while ($buf =~ s/^(\d{1,10}) (\d{1,20})\n//) {
            watch($1, $2);
        }
        exit 1 if $buf =~ /\n/ || length($buf) > 64; # not the minion speaking
    }
}
