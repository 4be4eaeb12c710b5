# The `syscalls` attack of test/support/attacker.sh: calls that reach kernel code a game server
# never needs, each with arguments that succeed (or fail otherwise than EPERM) for an unprivileged
# process when nothing filters them. SYSCALLS names them with their numbers for this machine
# ("name=nr ..."); one line each: "SYSCALL name ok" or "SYSCALL name errno N".
use strict;
use warnings;

my $ppid = getppid();
my $io_uring_params = "\0" x 120;
# struct file_handle with handle_bytes 0 (the kernel answers EOVERFLOW with the size it needs).
my $file_handle = pack('LL', 0, 0) . ("\0" x 128);
my $mount_id = pack('L', 0);
my %args = (
  io_uring_setup => [1, $io_uring_params],
  userfaultfd => [1],                    # UFFD_USER_MODE_ONLY: allowed unprivileged
  keyctl => [0, -3, 0],                  # KEYCTL_GET_KEYRING_ID of the session keyring
  add_key => ['user', 'k', 'v', 1, -2],  # into the process keyring
  unshare => [0],                        # no flags: a no-op that succeeds
  setns => [-1, 0],
  ptrace => [0x4206, $ppid, 0, 0],       # PTRACE_SEIZE of its parent shell (same uid; seizing stops nothing)
  process_vm_readv => [$ppid, 0, 0, 0, 0, 0],
  kcmp => [$$, $ppid, 0, 0, 0],          # KCMP_FILE
  name_to_handle_at => [-100, '.', $file_handle, $mount_id, 0],
  syslog => [10, 0, 0],                  # SYSLOG_ACTION_SIZE_BUFFER
  perf_event_open => [pack('LLQ', 1, 128, 0) . ("\0" x 112), 0, -1, -1, 0],  # a software clock on itself
  personality => [0x0040000],            # ADDR_NO_RANDOMIZE
  personality_query => [0xffffffff],     # allowed: reads the current one
  socket => [40, 1, 0],                  # AF_VSOCK: the host's vsock services, past the network namespace
  clone => [0x10000000 | 17, 0, 0, 0, 0],  # CLONE_NEWUSER | SIGCHLD
  x32_getpid => [],
  getpid => [],
  mount => ['none', '/proc', 'proc', 0, 0],
  chroot => ['/'],
);

for my $pair (split ' ', $ENV{SYSCALLS}) {
  my ($name, $nr) = split /=/, $pair;
  my $r = syscall($nr, @{ $args{$name} // [] });
  # A clone that made a child: the child ends here.
  POSIX::_exit(0) if $name eq 'clone' && $r == 0;
  print "SYSCALL $name ", ($r == -1 ? 'errno ' . ($! + 0) : 'ok'), "\n";
}
use POSIX ();
