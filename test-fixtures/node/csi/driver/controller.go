package main

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"sort"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/timestamppb"
)

type controller struct {
	csi.UnimplementedControllerServer
	store *store
}

var controllerCapabilities = []csi.ControllerServiceCapability_RPC_Type{
	csi.ControllerServiceCapability_RPC_CREATE_DELETE_VOLUME,
	csi.ControllerServiceCapability_RPC_CREATE_DELETE_SNAPSHOT,
	csi.ControllerServiceCapability_RPC_LIST_SNAPSHOTS,
	csi.ControllerServiceCapability_RPC_CLONE_VOLUME,
}

func (c *controller) ControllerGetCapabilities(context.Context, *csi.ControllerGetCapabilitiesRequest) (*csi.ControllerGetCapabilitiesResponse, error) {
	caps := make([]*csi.ControllerServiceCapability, 0, len(controllerCapabilities))
	for _, t := range controllerCapabilities {
		caps = append(caps, &csi.ControllerServiceCapability{
			Type: &csi.ControllerServiceCapability_Rpc{Rpc: &csi.ControllerServiceCapability_RPC{Type: t}},
		})
	}
	return &csi.ControllerGetCapabilitiesResponse{Capabilities: caps}, nil
}

// checkCapabilities accepts file-system volumes only: a folder cannot be a block device.
func checkCapabilities(caps []*csi.VolumeCapability) error {
	if len(caps) == 0 {
		return status.Error(codes.InvalidArgument, "volume_capabilities is empty: name at least one access mode")
	}
	for _, c := range caps {
		if c.GetBlock() != nil {
			return status.Error(codes.InvalidArgument, "volumeMode Block is not supported by hostpath.csi.varroa.dev: use volumeMode Filesystem")
		}
	}
	return nil
}

func (c *controller) CreateVolume(_ context.Context, req *csi.CreateVolumeRequest) (*csi.CreateVolumeResponse, error) {
	id := req.GetName()
	if !validID(id) {
		return nil, status.Errorf(codes.InvalidArgument, "volume name %q must be one path element", id)
	}
	if err := checkCapabilities(req.GetVolumeCapabilities()); err != nil {
		return nil, err
	}
	c.store.mu.Lock()
	defer c.store.mu.Unlock()
	var fill func(string) error
	source := req.GetVolumeContentSource()
	if snap := source.GetSnapshot(); snap != nil {
		if _, ok, err := c.store.snapshot(snap.GetSnapshotId()); err != nil || !ok || !validID(snap.GetSnapshotId()) {
			return nil, status.Errorf(codes.NotFound, "volume %s: source snapshot %q does not exist (dataSource of the PVC)", id, snap.GetSnapshotId())
		}
		fill = func(dir string) error { return c.store.restoreSnapshot(snap.GetSnapshotId(), dir) }
	} else if vol := source.GetVolume(); vol != nil {
		if !validID(vol.GetVolumeId()) || !exists(c.store.volumePath(vol.GetVolumeId())) {
			return nil, status.Errorf(codes.NotFound, "volume %s: source volume %q does not exist (dataSource of the PVC)", id, vol.GetVolumeId())
		}
		fill = func(dir string) error { return c.store.copyVolume(vol.GetVolumeId(), dir) }
	}
	if err := c.store.createVolume(id, fill); err != nil {
		return nil, status.Errorf(codes.Internal, "volume %s: creating its folder: %v", id, err)
	}
	return &csi.CreateVolumeResponse{Volume: &csi.Volume{
		VolumeId:      id,
		CapacityBytes: req.GetCapacityRange().GetRequiredBytes(),
		ContentSource: source,
	}}, nil
}

func (c *controller) DeleteVolume(_ context.Context, req *csi.DeleteVolumeRequest) (*csi.DeleteVolumeResponse, error) {
	if !validID(req.GetVolumeId()) {
		return nil, status.Errorf(codes.InvalidArgument, "volume id %q must be one path element", req.GetVolumeId())
	}
	c.store.mu.Lock()
	defer c.store.mu.Unlock()
	if err := c.store.deleteVolume(req.GetVolumeId()); err != nil {
		return nil, status.Errorf(codes.Internal, "volume %s: deleting its folder: %v", req.GetVolumeId(), err)
	}
	return &csi.DeleteVolumeResponse{}, nil
}

func (c *controller) ValidateVolumeCapabilities(_ context.Context, req *csi.ValidateVolumeCapabilitiesRequest) (*csi.ValidateVolumeCapabilitiesResponse, error) {
	if !validID(req.GetVolumeId()) || !exists(c.store.volumePath(req.GetVolumeId())) {
		return nil, status.Errorf(codes.NotFound, "volume %q does not exist", req.GetVolumeId())
	}
	if err := checkCapabilities(req.GetVolumeCapabilities()); err != nil {
		return &csi.ValidateVolumeCapabilitiesResponse{Message: err.Error()}, nil
	}
	return &csi.ValidateVolumeCapabilitiesResponse{Confirmed: &csi.ValidateVolumeCapabilitiesResponse_Confirmed{
		VolumeCapabilities: req.GetVolumeCapabilities(),
	}}, nil
}

func (c *controller) CreateSnapshot(_ context.Context, req *csi.CreateSnapshotRequest) (*csi.CreateSnapshotResponse, error) {
	id, source := req.GetName(), req.GetSourceVolumeId()
	if !validID(id) || !validID(source) {
		return nil, status.Errorf(codes.InvalidArgument, "snapshot name %q and source volume id %q must each be one path element", id, source)
	}
	c.store.mu.Lock()
	defer c.store.mu.Unlock()
	meta, ok, err := c.store.snapshot(id)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if ok && meta.SourceVolumeID != source {
		return nil, status.Errorf(codes.AlreadyExists, "snapshot %s already exists for volume %s, not %s", id, meta.SourceVolumeID, source)
	}
	if !ok {
		if !exists(c.store.volumePath(source)) {
			return nil, status.Errorf(codes.NotFound, "snapshot %s: source volume %s does not exist", id, source)
		}
		if meta, err = c.store.cutSnapshot(id, source); err != nil {
			return nil, status.Errorf(codes.Internal, "snapshot %s: %v", id, err)
		}
	}
	return &csi.CreateSnapshotResponse{Snapshot: csiSnapshot(id, meta)}, nil
}

func csiSnapshot(id string, meta snapshotMeta) *csi.Snapshot {
	return &csi.Snapshot{
		SnapshotId:     id,
		SourceVolumeId: meta.SourceVolumeID,
		SizeBytes:      meta.SizeBytes,
		CreationTime:   timestamppb.New(meta.CreatedAt),
		ReadyToUse:     true,
	}
}

func (c *controller) DeleteSnapshot(_ context.Context, req *csi.DeleteSnapshotRequest) (*csi.DeleteSnapshotResponse, error) {
	if !validID(req.GetSnapshotId()) {
		return nil, status.Errorf(codes.InvalidArgument, "snapshot id %q must be one path element", req.GetSnapshotId())
	}
	c.store.mu.Lock()
	defer c.store.mu.Unlock()
	if err := c.store.deleteSnapshot(req.GetSnapshotId()); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, status.Errorf(codes.Internal, "snapshot %s: %v", req.GetSnapshotId(), err)
	}
	return &csi.DeleteSnapshotResponse{}, nil
}

func (c *controller) ListSnapshots(_ context.Context, req *csi.ListSnapshotsRequest) (*csi.ListSnapshotsResponse, error) {
	ids, err := c.store.snapshotIDs()
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if req.GetSnapshotId() != "" {
		ids = []string{req.GetSnapshotId()}
	}
	sort.Strings(ids)
	resp := &csi.ListSnapshotsResponse{}
	for _, id := range ids {
		meta, ok, err := c.store.snapshot(id)
		if err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, status.Error(codes.Internal, err.Error())
		}
		if !ok || (req.GetSourceVolumeId() != "" && meta.SourceVolumeID != req.GetSourceVolumeId()) {
			continue
		}
		resp.Entries = append(resp.Entries, &csi.ListSnapshotsResponse_Entry{Snapshot: csiSnapshot(id, meta)})
	}
	return resp, nil
}
