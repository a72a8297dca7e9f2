#!/bin/sh
# 50-readiness.sh: integration test of the content-bound readiness marker.
# Runs as root inside the disposable systemd container
# (regress/integration.sh) after `make install`.  Part 1 runs the
# installed opencode-pty-verify-readiness directly against good and bad
# markers and binaries; part 2 shows that a dummy opencode-v2.service
# (User=byk) is skipped, not failed, by ExecCondition= until the marker is
# valid and the installed unit files, drop-in and sysusers.d entry are
# the ones the verifier was built with, and then starts.  Everything it
# changes is restored on exit.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

ITLIB_BASE=1
. "$REPO/regress/itlib.sh"

LX=$INST_LIBEXEC
V=$LX/opencode-pty-verify-readiness
SUP=$LX/opencode-pty-supervisor
LAU=$LX/opencode-pty-launcher
CLI=$LX/opencode-pty-client
M=/etc/opencode/pty-supervisor-verified
UNIT=opencode-v2.service
UNITFILE=/etc/systemd/system/$UNIT
DROPIN_NAME=10-opencode-pty-readiness.conf
INST_DROPIN=$INST_UNITDIR/$UNIT.d/$DROPIN_NAME
RUN_DROPIN=/run/systemd/system/$UNIT.d/$DROPIN_NAME
# The configuration the install wrote (make install or the packages:
# itlib.sh, INST_); the verifier embeds its digests.
SUPUNIT=$INST_UNITDIR/opencode-pty-supervisor.service
SLICEUNIT=$INST_UNITDIR/opencode-pty.slice
SYSUSERS=$INST_SYSUSERSDIR/opencode-pty-relay.conf
CONFS="$SUPUNIT $SLICEUNIT $INST_DROPIN $SYSUSERS"

for f in "$V" "$SUP" "$LAU" "$CLI"; do
	if [ ! -x "$f" ]; then
		echo "FAIL: $f is not installed (make all; make install)"
		exit 1
	fi
done
for f in $CONFS; do
	if [ ! -f "$f" ]; then
		echo "FAIL: $f is not installed (make install)"
		exit 1
	fi
done
if ! id -u byk >/dev/null 2>&1; then
	echo "FAIL: user byk does not exist (the harness creates it)"
	exit 1
fi
if [ -e "$UNITFILE" ] || [ -e "$M" ]; then
	echo "FAIL: $UNITFILE or $M already exists: not a disposable system"
	exit 1
fi

cleanup()
{
	systemctl stop "$UNIT" >/dev/null 2>&1
	rm -rf "$M" "$UNITFILE" /etc/opencode/.opty-link "$RUN_DROPIN"
	for b in "$SUP" "$LAU" "$CLI"; do
		[ -e "$tmp/${b##*/}" ] || continue
		rm -f "$b"
		cp -p "$tmp/${b##*/}" "$b"
	done
	rm -f "$LX"/*.opty-real
	for f in $CONFS; do
		[ -e "$tmp/conf/${f##*/}" ] || continue
		rm -f "$f"
		cp -p "$tmp/conf/${f##*/}" "$f"
	done
	systemctl daemon-reload
	itlib_cleanup
}
trap cleanup EXIT
for b in "$SUP" "$LAU" "$CLI"; do
	cp -p "$b" "$tmp/${b##*/}" || exit 1
done
mkdir "$tmp/conf" || exit 1
for f in $CONFS; do
	cp -p "$f" "$tmp/conf/${f##*/}" || exit 1
done
# conf_restore FILE: puts back the installed copy saved above.
conf_restore() { cp -p "$tmp/conf/${1##*/}" "$1"; }
install -d -o root -g root -m 0755 /etc/opencode || exit 1

REV=$("$V" --print-revision) || { echo "FAIL: --print-revision"; exit 1; }

# put FILE: installs FILE as the marker, root:root 0644, atomically.
put()
{
	install -o root -g root -m 0644 "$1" "$M.new" && mv -f "$M.new" "$M"
}

# The operator's procedure (docs/ROOT-ACCEPTANCE.md, gate 10).
{
	printf '%s\n' "$REV"
	sha256sum "$SUP" "$LAU" "$CLI"
} > "$tmp/valid" || exit 1

# verdict NAME RC PATTERN: runs the verifier; wants exit RC and, on a
# refusal, exactly one stderr line matching PATTERN (grep -E).
verdict()
{
	timeout 10 "$V" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	n=$(wc -l < "$tmp/err")
	if [ "$rc" != "$2" ]; then
		fail "$1: exit $rc, want $2 ($(cat "$tmp/err"))"
	elif [ "$2" = 0 ]; then
		# One line, on stderr: under ExecCondition= stdout would
		# reach whatever the service's stdout is.
		if [ "$n" = 1 ] && [ ! -s "$tmp/out" ]; then pass "$1: ready"
		else fail "$1: ready but stdout/stderr: $(cat "$tmp/out" "$tmp/err")"; fi
	elif [ "$n" != 1 ]; then
		fail "$1: $n stderr lines, want 1: $(cat "$tmp/err")"
	elif grep -Eq -- "$3" "$tmp/err"; then
		pass "$1: $(cat "$tmp/err")"
	else
		fail "$1: reason '$(cat "$tmp/err")' does not match '$3'"
	fi
}

# with_marker NAME PATTERN: the marker is $tmp/m (as written by `put`).
bad_content()
{
	put "$tmp/m"
	verdict "$1" 1 "$2"
}

echo "-- part 1: the verifier on its own"
case $REV in
revision=opencode-v2-pilot:git:*\;pty-source:sha256:*)
	if printf '%s\n' "$REV" | grep -Eqx \
	    'revision=opencode-v2-pilot:git:[0-9a-f]{40};pty-source:sha256:[0-9a-f]{64}'
	then pass "--print-revision: $REV"
	else fail "--print-revision: malformed: $REV"; fi ;;
*) fail "--print-revision: malformed: $REV" ;;
esac
# The tree the install was built from (itinst.sh: INST_SRC; the packages
# are built from a clone of the committed HEAD).
if [ -e "$INST_SRC/.git" ] && command -v git >/dev/null; then
	want="revision=opencode-v2-pilot:git:$(git -C "$INST_SRC" rev-parse HEAD)"
	want="$want;pty-source:sha256:$(cd "$INST_SRC" &&
	    sh build-aux/review-source-hash)"
	if [ "$REV" = "$want" ]; then
		pass "embedded revision = git HEAD + review-source-hash of $INST_SRC"
	else
		fail "embedded revision $REV != $INST_SRC's $want"
	fi
else
	fail "$INST_SRC is no git work tree: cannot recompute the revision"
fi
"$V" --no-such-option 2> /dev/null
rc=$?
[ $rc = 2 ] && pass "unknown option: exit 2" || fail "unknown option: exit $rc"

verdict "absent marker" 1 "$M: no such file"
put "$tmp/valid"
verdict "valid marker" 0
[ "$(cat "$tmp/err")" = "opencode-pty-verify-readiness: ready: $REV" ] &&
    pass "ready line names the revision" ||
    fail "ready line: $(cat "$tmp/err")"

chown byk "$M"; verdict "marker owned by byk" 1 "not owned by root"
chown root "$M"
for mode in 0664 0666 0600 0640 0755 4644; do
	chmod "$mode" "$M"
	verdict "marker mode $mode" 1 "mode is not exactly 0644"
done
chmod 0644 "$M"
ln "$M" /etc/opencode/.opty-link
verdict "marker with 2 links" 1 "more than one hard link"
rm -f /etc/opencode/.opty-link "$M"
install -o root -g root -m 0644 "$tmp/valid" "$tmp/target"
ln -s "$tmp/target" "$M"
verdict "symlinked marker" 1 "is a symbolic link"
rm -f "$M"
mkdir "$M"; verdict "marker is a directory" 1 "not a regular file"
rmdir "$M"
mkfifo -m 0644 "$M"; verdict "marker is a FIFO" 1 "not a regular file"
rm -f "$M"
: > "$tmp/m"; bad_content "empty marker" "is empty"
head -c 5000 /dev/zero | tr '\0' 'x' > "$tmp/m"
bad_content "oversized marker" "too large"
chmod 0775 /etc/opencode; put "$tmp/valid"
verdict "group-writable /etc/opencode" 1 "parent directory"
chmod 0755 /etc/opencode

{ cat "$tmp/valid"; tail -n 1 "$tmp/valid"; } > "$tmp/m"
bad_content "duplicate last line" "duplicate line"
{ cat "$tmp/valid"; echo extra; } > "$tmp/m"
bad_content "trailing line" "trailing line"
head -c -1 "$tmp/valid" > "$tmp/m"
bad_content "no final newline" "not newline-terminated"
head -n 3 "$tmp/valid" > "$tmp/m"
bad_content "three lines" "fewer than 4 lines"
sed '1s/git:[0-9a-f]\{40\}/git:0123456789abcdef0123456789abcdef01234567/' \
    "$tmp/valid" > "$tmp/m"
bad_content "arbitrary commit" "different git commit"
sed '1s/sha256:[0-9a-f]\{64\}$/sha256:0000000000000000000000000000000000000000000000000000000000000000/' \
    "$tmp/valid" > "$tmp/m"
bad_content "source-manifest mismatch" "different source-manifest hash"
for l in 1 3 2 4; do sed -n "${l}p" "$tmp/valid"; done > "$tmp/m"
bad_content "records out of order" "order"
sed '2s/  /  \/tmp/' "$tmp/valid" > "$tmp/m"
bad_content "unexpected path" "unexpected path"
sed '3s/^[0-9a-f]\{64\}/0000000000000000000000000000000000000000000000000000000000000000/' \
    "$tmp/valid" > "$tmp/m"
bad_content "stale launcher hash" "$LAU: SHA-256 differs"
sed '2s/^\([0-9a-f]*\)  /\1 */' "$tmp/valid" > "$tmp/m"
bad_content "binary-mode record" "record is not"
sed 's/$/\r/' "$tmp/valid" > "$tmp/m"
bad_content "CRLF line ends" "not a revision line"

put "$tmp/valid"
verdict "valid marker again" 0
printf 'x' >> "$LAU"
verdict "launcher changed after the marker" 1 "$LAU: SHA-256 differs"
cp -p "$tmp/opencode-pty-launcher" "$LAU"
chmod g+w "$CLI"; verdict "group-writable client" 1 "$CLI: writable by group"
chmod o+w,g-w "$CLI"; verdict "world-writable client" 1 "$CLI: writable by group or other"
chmod 0755 "$CLI"
chown byk "$SUP"; verdict "supervisor owned by byk" 1 "$SUP: not owned by root"
chown root "$SUP"; chmod 0755 "$SUP"
mv "$CLI" "$CLI.opty-real"; ln -s "$CLI.opty-real" "$CLI"
verdict "symlinked client" 1 "$CLI: is a symbolic link"
rm -f "$CLI"; mv "$CLI.opty-real" "$CLI"
verdict "restored binaries" 0

# The installed units, drop-in and sysusers.d entry are the copies the
# verifier was built with ("restored" above is the positive control).
CONFERR="differs from the copy this verifier was built with"
sed 's/^NoNewPrivileges=yes$/NoNewPrivileges=no/' "$tmp/conf/${SUPUNIT##*/}" \
    > "$SUPUNIT"
if cmp -s "$SUPUNIT" "$tmp/conf/${SUPUNIT##*/}"; then
	fail "the supervisor unit has no NoNewPrivileges=yes line to weaken"
fi
verdict "weakened supervisor unit" 1 "$SUPUNIT: $CONFERR"
conf_restore "$SUPUNIT"
echo '# one more line' >> "$SLICEUNIT"
verdict "modified slice" 1 "$SLICEUNIT: $CONFERR"
conf_restore "$SLICEUNIT"
echo 'ExecCondition=' >> "$INST_DROPIN"
verdict "modified readiness drop-in" 1 "$INST_DROPIN: $CONFERR"
conf_restore "$INST_DROPIN"
echo 'g opencode-pty-relay 0' >> "$SYSUSERS"
verdict "modified sysusers.d entry" 1 "$SYSUSERS: $CONFERR"
conf_restore "$SYSUSERS"
rm -f "$SUPUNIT"
verdict "supervisor unit absent" 1 "$SUPUNIT: no such file"
conf_restore "$SUPUNIT"
chmod g+w "$SUPUNIT"
verdict "group-writable supervisor unit" 1 "$SUPUNIT: writable by group"
chmod 0644 "$SUPUNIT"
verdict "restored configuration" 0

echo "-- part 2: ExecCondition= of $UNIT in systemd"
cat > "$UNITFILE" <<EOT
[Unit]
Description=dummy Node service (50-readiness.sh)
[Service]
Type=exec
User=byk
ExecStart=/bin/sleep infinity
EOT
if [ -e "$INST_DROPIN" ]; then
	dropin=$INST_DROPIN
else
	mkdir -p "${RUN_DROPIN%/*}"
	if [ -e "etc/$UNIT.d/$DROPIN_NAME" ]; then
		cp "etc/$UNIT.d/$DROPIN_NAME" "$RUN_DROPIN"
	else
		printf '[Service]\nExecCondition=+%s\n' "$V" > "$RUN_DROPIN"
	fi
	dropin=$RUN_DROPIN
fi
if grep -qx "ExecCondition=+$V" "$dropin"; then
	pass "$dropin runs the verifier as root (ExecCondition=+)"
else
	fail "$dropin: want the line ExecCondition=+$V (root, not User=byk)"
fi
systemctl daemon-reload
if systemctl show -p ExecCondition --value "$UNIT" | grep -q "path=$V "; then
	pass "$UNIT has ExecCondition=$V"
else
	fail "$UNIT lacks ExecCondition=$V"
fi

prop() { systemctl show -p "$1" --value "$UNIT"; }

# skipped NAME PATTERN: the start attempt must leave the unit inactive,
# not failed, with ConditionResult=no, and the verifier's one-line reason
# (matching PATTERN) in the unit's journal.
skipped()
{
	systemctl reset-failed "$UNIT" 2>/dev/null
	systemctl start "$UNIT" 2>/dev/null
	st=$(prop ActiveState) cr=$(prop ConditionResult)
	if [ "$st" = inactive ] && [ "$cr" = no ] &&
	    ! systemctl -q is-failed "$UNIT"; then
		pass "$1: $UNIT skipped (ActiveState=$st ConditionResult=$cr)"
	else
		fail "$1: ActiveState=$st ConditionResult=$cr, want inactive/no"
	fi
	# journald reads the verifier's stderr asynchronously: poll, bounded.
	i=0
	while [ $i -lt 50 ]; do
		journalctl -q -u "$UNIT" -o cat 2>/dev/null |
		    grep -Eq -- "not ready: $2" && break
		sleep 0.1
		i=$((i + 1))
	done
	if [ $i -lt 50 ]; then
		pass "$1: journal has the verifier's reason"
	else
		fail "$1: no 'not ready: $2' line in the journal of $UNIT"
	fi
	systemctl stop "$UNIT" 2>/dev/null
}

rm -f "$M"
skipped "no marker" "$M: no such file"
sed '2s/^[0-9a-f]\{64\}/0000000000000000000000000000000000000000000000000000000000000000/' \
    "$tmp/valid" > "$tmp/m"
put "$tmp/m"
skipped "stale supervisor hash" "$SUP: SHA-256 differs"
put "$tmp/valid"; chmod 0664 "$M"
skipped "marker mode 0664" "$M: mode is not exactly 0644"
rm -f "$M"; ln -s "$tmp/target" "$M"
skipped "symlinked marker" "$M: is a symbolic link"
rm -f "$M"; put "$tmp/valid"
echo '# one more line' >> "$SUPUNIT"
skipped "modified supervisor unit" "$SUPUNIT: differs from the copy"
conf_restore "$SUPUNIT"

systemctl reset-failed "$UNIT" 2>/dev/null
if systemctl start "$UNIT"; then
	st=$(prop ActiveState) pid=$(prop MainPID)
	user=$(ps -o user= -p "$pid" 2>/dev/null)
	if [ "$st" = active ] && [ "$user" = byk ]; then
		pass "valid marker: $UNIT active, MainPID $pid runs as $user"
	else
		fail "valid marker: ActiveState=$st MainPID=$pid user=$user"
	fi
else
	fail "valid marker: systemctl start $UNIT failed"
fi
systemctl stop "$UNIT"

finish
