module varroa.dev/test-fixtures/node/csi-hostpath

go 1.26.0

require (
	github.com/container-storage-interface/spec v1.13.0
	golang.org/x/sys v0.45.0
	google.golang.org/grpc v1.79.3
	google.golang.org/protobuf v1.36.10
	k8s.io/kubelet v0.34.4
)

require (
	golang.org/x/net v0.55.0 // indirect
	golang.org/x/text v0.37.0 // indirect
	google.golang.org/genproto/googleapis/rpc v0.0.0-20251202230838-ff82c1b0f217 // indirect
)
