# bytes.awk: test data generator for the differential oracle (test only,
# runs as root in the disposable systemd, trusts nothing it reads).
# Prints n pseudo-random bytes, every value 0..255 possible, from a fixed
# seed: the Park-Miller "minimal standard" generator, whose products stay
# below 2^53 so awk's doubles compute it exactly.  The same n and seed
# give the same bytes on every run, which /dev/urandom would not.
#
#	LC_ALL=C awk -v n=65536 -v seed=20250520 -f bytes.awk
BEGIN {
	if (n !~ /^[0-9]+$/ || seed !~ /^[1-9][0-9]*$/) {
		print "bytes.awk: need n >= 0 and seed >= 1" > "/dev/stderr"
		exit 2
	}
	x = seed % 2147483647
	if (x == 0)
		x = 1
	for (i = 0; i < n; i++) {
		x = (x * 16807) % 2147483647
		# The top bits: the low bits of this generator are weaker.
		printf "%c", int(x / 8388608) % 256
	}
}
