package main

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/container-storage-interface/spec/lib/go/csi"
)

var mountCapability = []*csi.VolumeCapability{{
	AccessType: &csi.VolumeCapability_Mount{Mount: &csi.VolumeCapability_MountVolume{}},
	AccessMode: &csi.VolumeCapability_AccessMode{Mode: csi.VolumeCapability_AccessMode_SINGLE_NODE_WRITER},
}}

func newController(t *testing.T) *controller {
	st, err := openStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &controller{store: st}
}

func createVolume(t *testing.T, c *controller, name string, source *csi.VolumeContentSource) {
	t.Helper()
	_, err := c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{
		Name: name, VolumeCapabilities: mountCapability, VolumeContentSource: source,
	})
	if err != nil {
		t.Fatalf("CreateVolume %s: %v", name, err)
	}
}

func TestRestoresSnapshotWithFilesModesAndLinks(t *testing.T) {
	c := newController(t)
	createVolume(t, c, "pvc-a", nil)
	dir := c.store.volumePath("pvc-a")
	if err := os.MkdirAll(filepath.Join(dir, "jobs", "build"), 0o750); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "jobs", "build", "config.xml"), []byte("<project/>"), 0o640); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("jobs/build", filepath.Join(dir, "last")); err != nil {
		t.Fatal(err)
	}
	snap, err := c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: "snap-1", SourceVolumeId: "pvc-a"})
	if err != nil || !snap.Snapshot.ReadyToUse || snap.Snapshot.SourceVolumeId != "pvc-a" {
		t.Fatalf("CreateSnapshot: %v %v", snap, err)
	}
	// data written after the snapshot must not appear in the restored volume
	if err := os.WriteFile(filepath.Join(dir, "later.txt"), []byte("later"), 0o644); err != nil {
		t.Fatal(err)
	}
	createVolume(t, c, "pvc-b", &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Snapshot{
		Snapshot: &csi.VolumeContentSource_SnapshotSource{SnapshotId: "snap-1"}}})
	restored := c.store.volumePath("pvc-b")
	data, err := os.ReadFile(filepath.Join(restored, "last", "config.xml"))
	if err != nil || string(data) != "<project/>" {
		t.Fatalf("restored file through the link: %q %v", data, err)
	}
	info, err := os.Stat(filepath.Join(restored, "jobs", "build", "config.xml"))
	if err != nil || info.Mode().Perm() != 0o640 {
		t.Fatalf("restored mode: %v %v", info, err)
	}
	if exists(filepath.Join(restored, "later.txt")) {
		t.Fatal("a file written after the snapshot was restored")
	}
}

func TestClonesVolume(t *testing.T) {
	c := newController(t)
	createVolume(t, c, "pvc-a", nil)
	if err := os.WriteFile(filepath.Join(c.store.volumePath("pvc-a"), "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	createVolume(t, c, "pvc-c", &csi.VolumeContentSource{Type: &csi.VolumeContentSource_Volume{
		Volume: &csi.VolumeContentSource_VolumeSource{VolumeId: "pvc-a"}}})
	if data, err := os.ReadFile(filepath.Join(c.store.volumePath("pvc-c"), "f")); err != nil || string(data) != "x" {
		t.Fatalf("cloned file: %q %v", data, err)
	}
}

func TestCreateIsIdempotentAndDeleteRemovesEverything(t *testing.T) {
	c := newController(t)
	createVolume(t, c, "pvc-a", nil)
	if err := os.WriteFile(filepath.Join(c.store.volumePath("pvc-a"), "f"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	createVolume(t, c, "pvc-a", nil) // a retried call keeps the data
	if !exists(filepath.Join(c.store.volumePath("pvc-a"), "f")) {
		t.Fatal("a second CreateVolume emptied the volume")
	}
	if _, err := c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: "s", SourceVolumeId: "pvc-a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.CreateSnapshot(context.Background(), &csi.CreateSnapshotRequest{Name: "s", SourceVolumeId: "pvc-other"}); err == nil {
		t.Fatal("the same snapshot name for another volume was accepted")
	}
	if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: "s"}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.DeleteSnapshot(context.Background(), &csi.DeleteSnapshotRequest{SnapshotId: "s"}); err != nil {
		t.Fatalf("deleting a deleted snapshot: %v", err)
	}
	if _, err := c.DeleteVolume(context.Background(), &csi.DeleteVolumeRequest{VolumeId: "pvc-a"}); err != nil {
		t.Fatal(err)
	}
	left, _ := filepath.Glob(filepath.Join(c.store.root, "*", "*"))
	if len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestRejectsIDsThatLeaveTheDataFolder(t *testing.T) {
	c := newController(t)
	_, err := c.CreateVolume(context.Background(), &csi.CreateVolumeRequest{Name: "../x", VolumeCapabilities: mountCapability})
	if err == nil {
		t.Fatal("a volume name with a slash was accepted")
	}
}

func TestReadsEscapedMountPaths(t *testing.T) {
	if got := unescapeMountPath(`/a\040b/c`); got != "/a b/c" {
		t.Fatalf("got %q", got)
	}
}
