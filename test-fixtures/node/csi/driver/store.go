package main

import (
	"archive/tar"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"
)

// store keeps volumes as folders and snapshots as tar files under one data folder:
//
//	volumes/<volume-id>/            the volume's files
//	snapshots/<snapshot-id>.tar     the files of the source volume when the snapshot was cut
//	snapshots/<snapshot-id>.json    snapshotMeta
type store struct {
	root string
	// One change at a time: the sidecars retry, and two retries of the same call must not interleave.
	mu sync.Mutex
}

type snapshotMeta struct {
	SourceVolumeID string    `json:"sourceVolumeId"`
	SizeBytes      int64     `json:"sizeBytes"`
	CreatedAt      time.Time `json:"createdAt"`
}

func openStore(root string) (*store, error) {
	for _, dir := range []string{"volumes", "snapshots"} {
		if err := os.MkdirAll(filepath.Join(root, dir), 0o700); err != nil {
			return nil, fmt.Errorf("data folder %s (--data-dir): %w", root, err)
		}
	}
	return &store{root: root}, nil
}

// validID keeps an ID to one path element, since it names a file under the data folder.
func validID(id string) bool {
	return id != "" && id != "." && id != ".." && !strings.ContainsAny(id, "/\x00")
}

func (s *store) volumePath(id string) string { return filepath.Join(s.root, "volumes", id) }

func (s *store) snapshotPath(id string) string { return filepath.Join(s.root, "snapshots", id+".tar") }

func (s *store) metaPath(id string) string { return filepath.Join(s.root, "snapshots", id+".json") }

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// createVolume makes the volume's folder, filled by fill when not nil; a half-filled folder is never seen
// under its final name.
func (s *store) createVolume(id string, fill func(dir string) error) error {
	final := s.volumePath(id)
	if exists(final) {
		return nil
	}
	staging := filepath.Join(s.root, "volumes", ".staging-"+id)
	if err := os.RemoveAll(staging); err != nil {
		return err
	}
	if err := os.Mkdir(staging, 0o777); err != nil {
		return err
	}
	// World-writable as local-path's folders are: a pod running as any user, with or without fsGroup, can write.
	if err := os.Chmod(staging, 0o777); err != nil {
		return err
	}
	if fill != nil {
		if err := fill(staging); err != nil {
			_ = os.RemoveAll(staging)
			return err
		}
	}
	return os.Rename(staging, final)
}

func (s *store) deleteVolume(id string) error { return os.RemoveAll(s.volumePath(id)) }

// cutSnapshot writes the volume's files into a tar, then its metadata; the metadata file marks it complete.
func (s *store) cutSnapshot(snapshotID, volumeID string) (snapshotMeta, error) {
	tmp := s.snapshotPath(snapshotID) + ".tmp"
	f, err := os.Create(tmp)
	if err != nil {
		return snapshotMeta{}, err
	}
	werr := writeTar(f, s.volumePath(volumeID))
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		_ = os.Remove(tmp)
		return snapshotMeta{}, fmt.Errorf("archiving volume %s: %w", volumeID, err)
	}
	info, err := os.Stat(tmp)
	if err != nil {
		return snapshotMeta{}, err
	}
	if err := os.Rename(tmp, s.snapshotPath(snapshotID)); err != nil {
		return snapshotMeta{}, err
	}
	meta := snapshotMeta{SourceVolumeID: volumeID, SizeBytes: info.Size(), CreatedAt: time.Now().UTC()}
	data, _ := json.Marshal(meta)
	if err := os.WriteFile(s.metaPath(snapshotID)+".tmp", data, 0o600); err != nil {
		return snapshotMeta{}, err
	}
	return meta, os.Rename(s.metaPath(snapshotID)+".tmp", s.metaPath(snapshotID))
}

// snapshot reads a complete snapshot's metadata; ok is false when there is none.
func (s *store) snapshot(id string) (meta snapshotMeta, ok bool, err error) {
	data, err := os.ReadFile(s.metaPath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return snapshotMeta{}, false, nil
	}
	if err != nil {
		return snapshotMeta{}, false, err
	}
	if err := json.Unmarshal(data, &meta); err != nil {
		return snapshotMeta{}, false, fmt.Errorf("snapshot %s: %s is not valid JSON: %w", id, s.metaPath(id), err)
	}
	return meta, true, nil
}

func (s *store) snapshotIDs() ([]string, error) {
	matches, err := filepath.Glob(filepath.Join(s.root, "snapshots", "*.json"))
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(matches))
	for _, m := range matches {
		ids = append(ids, strings.TrimSuffix(filepath.Base(m), ".json"))
	}
	return ids, nil
}

func (s *store) deleteSnapshot(id string) error {
	return errors.Join(os.Remove(s.metaPath(id)), os.Remove(s.snapshotPath(id)))
}

func (s *store) restoreSnapshot(snapshotID, dir string) error {
	f, err := os.Open(s.snapshotPath(snapshotID))
	if err != nil {
		return err
	}
	defer f.Close()
	return readTar(f, dir)
}

// copyVolume clones one volume's files into dir through a tar stream, keeping modes and owners.
func (s *store) copyVolume(sourceID, dir string) error {
	r, w := io.Pipe()
	go func() { w.CloseWithError(writeTar(w, s.volumePath(sourceID))) }()
	err := readTar(r, dir)
	_ = r.CloseWithError(err)
	return err
}

func writeTar(out io.Writer, dir string) error {
	tw := tar.NewWriter(out)
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == "." {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		link := ""
		if info.Mode()&fs.ModeSymlink != 0 {
			if link, err = os.Readlink(path); err != nil {
				return err
			}
		}
		hdr, err := tar.FileInfoHeader(info, link)
		if err != nil {
			return err
		}
		hdr.Name = filepath.ToSlash(rel)
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		if !info.Mode().IsRegular() {
			return nil
		}
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		defer f.Close()
		_, err = io.Copy(tw, f)
		return err
	})
	return errors.Join(err, tw.Close())
}

func readTar(in io.Reader, dir string) error {
	tr := tar.NewReader(in)
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		target := filepath.Join(dir, filepath.FromSlash(hdr.Name))
		if !strings.HasPrefix(target, dir+string(filepath.Separator)) {
			return fmt.Errorf("archive entry %q points outside the volume", hdr.Name)
		}
		full := hdr.FileInfo().Mode()
		mode := full.Perm() | full&(fs.ModeSetuid|fs.ModeSetgid|fs.ModeSticky)
		switch hdr.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(target, 0o700); err != nil {
				return err
			}
		case tar.TypeReg:
			f, err := os.OpenFile(target, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
			if err != nil {
				return err
			}
			_, cerr := io.Copy(f, tr)
			if err := errors.Join(cerr, f.Close()); err != nil {
				return err
			}
		case tar.TypeSymlink:
			if err := os.Symlink(hdr.Linkname, target); err != nil {
				return err
			}
		default:
			continue // devices, fifos and sockets have no place in a test volume
		}
		if err := os.Lchown(target, hdr.Uid, hdr.Gid); err != nil {
			return err
		}
		if hdr.Typeflag != tar.TypeSymlink {
			if err := os.Chmod(target, mode); err != nil {
				return err
			}
			if err := os.Chtimes(target, hdr.ModTime, hdr.ModTime); err != nil {
				return err
			}
		}
	}
}
