# regress/node/build.mk: the exact Node release (NODE_VERSION, from
# client/node/build.mk) staged into the build directory for the
# integration tests, which run a real Node service inside the disposable
# systemd (regress/it/76-node.sh, 77-node-probe.sh; regress/node/).

.PHONY: node-stage

node-stage:
	@BUILD=$(BUILD) sh regress/node/stage.sh

check-integration check-matrix: node-stage
