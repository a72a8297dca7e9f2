# itinst.sh: the install the integration scripts run against (test
# only), sourced by itlib.sh and by the scripts that need it before
# itlib.sh (12-paths.sh), inside the disposable systemd, as root.
#
# SPDX-License-Identifier: ISC
# Copyright (c) 2026 The opencode-pty authors (see LICENSE)

# The install under test (regress/integration.sh sets IT_INSTALL):
# `make install` of $BUILD with the defaults, or the Debian packages,
# built with the distribution's settings (debian/rules; those of
# $BUILD/usr-paths, USR_PATHS).  INST_BUILD is the build whose generated
# files that install must hold and whose test tools (TOOLS) name its
# paths, INST_SETTINGS its make settings, INST_SRC the source tree it
# was built from (the packages: deb.sh's clone of the committed HEAD,
# beside them in IT_DEB); its directories are read from the GNUmakefile
# with those settings.
case ${IT_INSTALL:-make} in
make)	INST_BUILD=$BUILD INST_SETTINGS= INST_SRC=$REPO ;;
deb)	INST_BUILD=$BUILD/usr-paths
	INST_SETTINGS=${USR_PATHS:?USR_PATHS is not set}
	TOOLS=$INST_BUILD/tools
	INST_SRC=${IT_DEB:-$BUILD/deb}/opencode-pty
	case $INST_SRC in /*) ;; *) INST_SRC=$REPO/$INST_SRC ;; esac ;;
*)	echo "FAIL: IT_INSTALL='$IT_INSTALL': make or deb"; exit 1 ;;
esac
# inst_dirs BUILD [SETTING...]: that build's LIBEXECDIR, UNITDIR,
# SYSUSERSDIR, NODEDIR and PREFIX, as the GNUmakefile sets them, on one
# line.
inst_dirs() {
	local b=$1
	shift
	make -s --no-print-directory -C "$REPO" BUILD="$b" "$@" --eval='inst-dirs: ;
	    @echo $(LIBEXECDIR) $(UNITDIR) $(SYSUSERSDIR) $(NODEDIR) $(PREFIX)' inst-dirs
}
# shellcheck disable=SC2086	# INST_SETTINGS: no blank in them
read -r INST_LIBEXEC INST_UNITDIR INST_SYSUSERSDIR INST_NODEDIR _ <<EOF
$(inst_dirs "$INST_BUILD" $INST_SETTINGS)
EOF
[ -n "$INST_NODEDIR" ] ||
    { echo "FAIL: the install's directories from the GNUmakefile"; exit 1; }
# inst_is_built PROG: the installed PROG is the install's own: the file
# `make install` copied from $BUILD/bin, or the one the package holds
# (dpkg's own digest of it); inst_origin PROG says which.
inst_is_built() {
	case ${IT_INSTALL:-make} in
	make) cmp -s "$BUILD/bin/$1" "$INST_LIBEXEC/$1" ;;
	deb) dpkg -S "$INST_LIBEXEC/$1" 2>/dev/null | grep -q '^opencode-pty:' &&
	    ! dpkg --verify opencode-pty | grep -q " $INST_LIBEXEC/$1\$" ;;
	esac
}
inst_origin() {
	case ${IT_INSTALL:-make} in
	make) echo "$BUILD/bin/$1" ;;
	deb) echo "the package's $1 (dpkg --verify)" ;;
	esac
}
