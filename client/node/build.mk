# client/node/build.mk: the Node client module (client/node/, plain
# JavaScript, nothing to build).  Its unit tests run under the exact Node
# release NODE_VERSION, taken from the npm registry's binary package by
# build-aux/node.sh and cached outside the tree.

NODE_VERSION		?= 26.4.0
export NODE_VERSION

SCRIPT_TESTS		+= regress/host/node-unit.sh
