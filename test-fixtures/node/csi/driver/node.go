package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"golang.org/x/sys/unix"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

type node struct {
	csi.UnimplementedNodeServer
	store  *store
	nodeID string
}

func (n *node) NodeGetInfo(context.Context, *csi.NodeGetInfoRequest) (*csi.NodeGetInfoResponse, error) {
	return &csi.NodeGetInfoResponse{NodeId: n.nodeID}, nil
}

// No STAGE_UNSTAGE_VOLUME: a folder needs no per-node preparation, so the kubelet calls publish directly.
func (n *node) NodeGetCapabilities(context.Context, *csi.NodeGetCapabilitiesRequest) (*csi.NodeGetCapabilitiesResponse, error) {
	return &csi.NodeGetCapabilitiesResponse{}, nil
}

// NodePublishVolume bind-mounts the volume's folder on the kubelet's target path; the mount reaches the node
// through the Bidirectional mount of the kubelet's folder into this container.
func (n *node) NodePublishVolume(_ context.Context, req *csi.NodePublishVolumeRequest) (*csi.NodePublishVolumeResponse, error) {
	id, target := req.GetVolumeId(), req.GetTargetPath()
	if !validID(id) || target == "" {
		return nil, status.Errorf(codes.InvalidArgument, "volume id %q must be one path element and target_path %q not empty", id, target)
	}
	if err := checkCapabilities([]*csi.VolumeCapability{req.GetVolumeCapability()}); err != nil {
		return nil, err
	}
	source := n.store.volumePath(id)
	if !exists(source) {
		return nil, status.Errorf(codes.NotFound, "volume %s has no folder %s: was it deleted?", id, source)
	}
	if err := os.MkdirAll(target, 0o750); err != nil {
		return nil, status.Errorf(codes.Internal, "volume %s: target %s: %v", id, target, err)
	}
	mounted, err := isMountPoint(target)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if mounted {
		return &csi.NodePublishVolumeResponse{}, nil
	}
	if err := unix.Mount(source, target, "", unix.MS_BIND, ""); err != nil {
		return nil, status.Errorf(codes.Internal, "volume %s: bind mount %s on %s: %v", id, source, target, err)
	}
	if req.GetReadonly() {
		if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			_ = unix.Unmount(target, 0)
			return nil, status.Errorf(codes.Internal, "volume %s: read-only remount of %s: %v", id, target, err)
		}
	}
	return &csi.NodePublishVolumeResponse{}, nil
}

func (n *node) NodeUnpublishVolume(_ context.Context, req *csi.NodeUnpublishVolumeRequest) (*csi.NodeUnpublishVolumeResponse, error) {
	target := req.GetTargetPath()
	if target == "" {
		return nil, status.Errorf(codes.InvalidArgument, "volume %s: target_path is empty", req.GetVolumeId())
	}
	mounted, err := isMountPoint(target)
	if err != nil {
		return nil, status.Error(codes.Internal, err.Error())
	}
	if mounted {
		if err := unix.Unmount(target, 0); err != nil {
			return nil, status.Errorf(codes.Internal, "volume %s: unmount %s: %v", req.GetVolumeId(), target, err)
		}
	}
	if err := os.Remove(target); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, status.Errorf(codes.Internal, "volume %s: removing %s: %v", req.GetVolumeId(), target, err)
	}
	return &csi.NodeUnpublishVolumeResponse{}, nil
}

// isMountPoint reads this process's mount table, since a bind mount of a folder on the same file system
// leaves the device number unchanged.
func isMountPoint(path string) (bool, error) {
	path = filepath.Clean(path)
	f, err := os.Open("/proc/self/mountinfo")
	if err != nil {
		return false, fmt.Errorf("reading the mount table: %w", err)
	}
	defer f.Close()
	scanner := bufio.NewScanner(f)
	scanner.Buffer(make([]byte, 64*1024), 1024*1024)
	for scanner.Scan() {
		fields := strings.Fields(scanner.Text())
		if len(fields) > 4 && unescapeMountPath(fields[4]) == path {
			return true, nil
		}
	}
	return false, scanner.Err()
}

// unescapeMountPath undoes the octal escapes (\040 for a space) of /proc/self/mountinfo.
func unescapeMountPath(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+3 < len(s) {
			var v int
			if _, err := fmt.Sscanf(s[i+1:i+4], "%03o", &v); err == nil {
				b.WriteByte(byte(v))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}
