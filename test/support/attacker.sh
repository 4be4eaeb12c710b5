#!/bin/sh
# A hostile game server (test-only image `attacker`): it tries what ATTACK says, prints what it
# got (one line per attempt: GOT/REFUSED), then runs as an ordinary echo server so the session
# reaches `running`. $1 is the Node that runs the echo server and the socket probe.
NODE="$1"
ECHO="$2"
# SETSID=1: all of it in a session of its own, out of the process group the sandbox started it
# in (exec'd in place: inside the sandbox it is no group leader, so setsid(1) does not fork).
if [ -n "$SETSID" ] && [ "$(cut -d ' ' -f 6 /proc/$$/stat)" != $$ ]; then exec setsid /bin/sh "$0" "$@"; fi
case "$ATTACK" in
  read)
    # TARGETS: paths the game server must not read (space-separated).
    for path in $TARGETS; do
      if cat "$path" > /dev/null 2>&1; then echo "GOT $path"; else echo "REFUSED $path"; fi
    done
    ;;
  socket)
    "$NODE" -e '
      const socket = require("node:net").connect(process.argv[1]);
      socket.on("connect", () => { console.log("GOT " + process.argv[1]); process.exit(0); });
      socket.on("error", (error) => { console.log("REFUSED " + process.argv[1] + " " + error.code); process.exit(0); });
    ' "$SOCKET"
    ;;
  connect)
    # TARGETS: host:port pairs (space-separated) to open a TCP connection to, reading what answers.
    "$NODE" -e '
      let left = process.argv.length - 1;
      for (const target of process.argv.slice(1)) {
        const at = target.lastIndexOf(":");
        const socket = require("node:net").connect(Number(target.slice(at + 1)), target.slice(0, at));
        const done = (line) => { console.log(line); socket.destroy(); if (--left === 0) process.exit(0); };
        socket.setTimeout(5000, () => done("REFUSED " + target + " timeout"));
        socket.on("data", (data) => done("GOT " + target + " " + String(data).trim()));
        socket.on("error", (error) => done("REFUSED " + target + " " + error.code));
      }
    ' $TARGETS
    ;;
  send)
    # TARGETS: host:port pairs (space-separated) to send one UDP datagram to (multicast and
    # broadcast included); says SENT or REFUSED for each (a datagram's delivery is the receiver's to see).
    "$NODE" -e '
      const dgram = require("node:dgram");
      let left = process.argv.length - 1;
      for (const target of process.argv.slice(1)) {
        const at = target.lastIndexOf(":");
        const socket = dgram.createSocket(target.includes("[") || target.slice(0, at).includes(":") ? "udp6" : "udp4");
        socket.bind(() => {
          socket.setBroadcast(true);
          socket.send("game-server", Number(target.slice(at + 1)), target.slice(0, at).replace(/^\[|\]$/g, ""), (error) => {
            console.log(error ? "REFUSED " + target + " " + error.code : "SENT " + target);
            socket.close();
            if (--left === 0) process.exit(0);
          });
        });
      }
    ' $TARGETS
    ;;
  spray)
    # SPRAY_COUNT UDP datagrams, each to a destination of its own: 203.0.113.x (TEST-NET-3, public
    # to the firewall, routed nowhere), ports from SPRAY_PORT on; then "SPRAYED <count>".
    "$NODE" -e '
      const socket = require("node:dgram").createSocket("udp4");
      const count = Number(process.env.SPRAY_COUNT);
      let left = count;
      socket.bind(() => {
        for (let i = 0; i < count; i++) {
          socket.send("x", Number(process.env.SPRAY_PORT) + i, "203.0.113." + (1 + (i % 250)), () => {
            if (--left === 0) { console.log("SPRAYED " + count); socket.close(); }
          });
        }
      });
    '
    ;;
  fds)
    # The descriptors a program it starts inherits (ls's own directory besides): "FD <n> <what>".
    ls -l /proc/self/fd | sed -n 's/.* \([0-9][0-9]*\) -> \(.*\)$/FD \1 \2/p'
    ;;
  environ)
    # From env: a game server's own /proc/self/environ is root's to read once its uid was changed.
    echo "ENVIRON $(env | tr '\n' ' ')"
    ;;
  forkbomb)
    # FORKS background processes, in a subshell (a failed fork ends the shell that tried it).
    # Counting and cleaning up use builtins only: no fork is left to spend.
    ( i=0; while [ $i -lt "$FORKS" ]; do sleep 30 & i=$((i + 1)); done ) 2> /dev/null
    set -- /proc/[0-9]*
    echo "PROCESSES $#"
    for entry in /proc/[0-9]*; do
      pid=${entry#/proc/}
      [ "$pid" != 1 ] && [ "$pid" != $$ ] && kill -9 "$pid" 2> /dev/null
    done
    while [ $# -gt 2 ]; do set -- /proc/[0-9]*; done
    ;;
  flood)
    # FLOOD_MB of output, then a last line that must survive the cap.
    head -c $((FLOOD_MB * 1024 * 1024)) /dev/zero | tr '\0' 'x' | fold -w 100
    echo "FLOOD DONE"
    ;;
  squat)
    # Bind every port from SQUAT_FROM to SQUAT_TO (TCP and UDP) and answer "squatter".
    exec "$NODE" -e '
      const [from, to] = [Number(process.env.SQUAT_FROM), Number(process.env.SQUAT_TO)];
      for (let port = from; port <= to; port++) {
        require("node:net").createServer((s) => s.end("squatter\n")).listen(port, "0.0.0.0").on("error", () => {});
        const udp = require("node:dgram").createSocket("udp4");
        udp.on("message", (m, r) => udp.send("squatter", r.port, r.address)).on("error", () => {});
        udp.bind(port, "0.0.0.0");
      }
      console.log("SQUATTING " + from + "-" + to);
    '
    ;;
  fill)
    # FILL_MB files of 1 MiB each in the work directory.
    i=0
    while [ $i -lt "$FILL_MB" ]; do head -c 1048576 /dev/zero > "fill-$i"; i=$((i + 1)); done
    echo "FILLED"
    ;;
  files)
    # FILES empty files in the work directory: no bytes, an inode each.
    "$NODE" -e 'for (let i = 0; i < Number(process.env.FILES); i++) require("node:fs").writeFileSync("empty-" + i, "")'
    echo "MADE FILES"
    ;;
  deep)
    # FILL_MB in 1 MiB files under directories nested past PATH_MAX, made by relative steps
    # (dash's cd goes by whole paths and stops short): no walk by whole names reaches them.
    "$NODE" -e '
      const fs = require("node:fs");
      for (let i = 0; i < 25; i++) {
        fs.mkdirSync("d".repeat(200));
        process.chdir("d".repeat(200));
      }
      const mb = Buffer.alloc(1 << 20);
      for (let i = 0; i < Number(process.env.FILL_MB); i++) fs.writeFileSync("fill-" + i, mb);
      console.log("FILLED DEEP");
    '
    ;;
  bigfile)
    # One file of FILL_MB, written at once.
    head -c $((FILL_MB * 1024 * 1024)) /dev/zero > big 2> /dev/null
    echo "BIGFILE $(wc -c < big)"
    ;;
  unlinked)
    # FILL_MB in four files unlinked first, kept open (fds 3-6) by the echo server it becomes.
    exec 3> hidden3 4> hidden4 5> hidden5 6> hidden6
    rm hidden3 hidden4 hidden5 hidden6
    quarter=$((FILL_MB * 1024 * 256))
    head -c $quarter /dev/zero >&3
    head -c $quarter /dev/zero >&4
    head -c $quarter /dev/zero >&5
    head -c $quarter /dev/zero >&6
    echo "WROTE UNLINKED"
    ;;
  userns)
    # A user namespace of its own: root there, with nf_tables and mounts to reach (kernel attack surface).
    if unshare -Ur true 2> /dev/null; then echo "GOT userns"; else echo "REFUSED userns"; fi
    if unshare -Urn true 2> /dev/null; then echo "GOT userns+net"; else echo "REFUSED userns+net"; fi
    ;;
  yes)
    # Output as fast as it can, for ever.
    exec yes "FLOODING"
    ;;
  syscalls)
    # System calls that reach kernel code a game server never needs (attacker-syscalls.pl).
    perl "$(dirname "$0")/attacker-syscalls.pl"
    ;;
  i386)
    # A call through the i386 ABI (int 0x80: getpid), from a 64-bit program written here: its
    # numbers are not the ones a filter checks. It exits 0 when the call returns.
    perl -e '
      my $code = pack("C*", 0xb8, 20, 0, 0, 0, 0xcd, 0x80, 0x31, 0xff, 0xb8, 60, 0, 0, 0, 0x0f, 0x05);
      my $size = 64 + 56 + length $code;
      my $elf = pack("A4C4x8vvVQ<Q<Q<VvvvvvvVVQ<Q<Q<Q<Q<Q<", "\x7fELF", 2, 1, 1, 0, 2, 0x3e, 1, 0x400078, 64, 0, 0, 64, 56, 1, 64, 0, 0,
        1, 5, 0, 0x400000, 0x400000, $size, $size, 0x1000) . $code;
      open my $f, ">", "i386-getpid" or die; print $f $elf; close $f; chmod 0755, "i386-getpid";
    '
    ./i386-getpid
    echo "I386 $?"
    ;;
  openfiles)
    # OPENERS processes (each under its own RLIMIT_NOFILE) opening FILES_EACH files each (/dev/null:
    # each open a new entry of the host's file table) once the file `go` appears in the work
    # directory (the test writes it once the session runs), holding them; it runs on as the echo server.
    i=0
    while [ $i -lt "$OPENERS" ]; do
      perl -e '$| = 1; select(undef, undef, undef, 0.05) until -e "go"; my @f;
        for (1 .. $ENV{FILES_EACH}) { open(my $h, "<", "/dev/null") or last; push @f, $h }
        print "OPENED " . scalar(@f) . "\n"; sleep 600' &
      i=$((i + 1))
    done
    ;;
  idle)
    # Never binds its ports.
    exec sleep 600
    ;;
esac
exec "$NODE" "$ECHO"
