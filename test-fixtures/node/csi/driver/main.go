// Command csi-hostpath is the CSI driver of Varroa's test node: a volume is a folder under --data-dir, a
// snapshot is a tar of one, and a pod gets its volume through a bind mount. The Go module proxy serves neither
// csi-driver-host-path nor node-driver-registrar, so this driver is ours and registers itself with the kubelet.
// A test fixture only: no capacity is enforced and the data lives on the node's disk.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/container-storage-interface/spec/lib/go/csi"
	"google.golang.org/grpc"
	registerapi "k8s.io/kubelet/pkg/apis/pluginregistration/v1"
)

const driverVersion = "0.1.0"

type options struct {
	driverName      string
	endpoint        string
	kubeletEndpoint string
	registrationDir string
	dataDir         string
	nodeID          string
}

func main() {
	var o options
	flag.StringVar(&o.driverName, "driver-name", "hostpath.csi.varroa.dev", "the CSI driver name (CSIDriver and StorageClass provisioner)")
	flag.StringVar(&o.endpoint, "endpoint", "/csi/csi.sock", "the CSI socket inside this container, shared with the sidecars")
	flag.StringVar(&o.kubeletEndpoint, "kubelet-endpoint", "", "the same socket's path on the node, where the kubelet dials it; empty: do not register with the kubelet")
	flag.StringVar(&o.registrationDir, "registration-dir", "/registration", "the kubelet's plugins_registry folder as mounted in this container")
	flag.StringVar(&o.dataDir, "data-dir", "/csi-data", "the folder that holds volumes/ and snapshots/")
	flag.StringVar(&o.nodeID, "node-id", "", "this node's name, reported by NodeGetInfo")
	flag.Parse()
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if err := run(o); err != nil {
		slog.Error("csi-hostpath stopped", "err", err)
		os.Exit(1)
	}
}

func run(o options) error {
	if o.nodeID == "" {
		return errors.New("--node-id is empty: pass the node's name (spec.nodeName through the downward API)")
	}
	st, err := openStore(o.dataDir)
	if err != nil {
		return err
	}
	csiListener, err := listenUnix(o.endpoint)
	if err != nil {
		return err
	}
	server := grpc.NewServer(grpc.UnaryInterceptor(logCalls))
	csi.RegisterIdentityServer(server, identity{name: o.driverName})
	csi.RegisterControllerServer(server, &controller{store: st})
	csi.RegisterNodeServer(server, &node{store: st, nodeID: o.nodeID})
	servers := []*grpc.Server{server}
	errs := make(chan error, 2)
	go func() { errs <- server.Serve(csiListener) }()
	slog.Info("serving CSI", "driver", o.driverName, "endpoint", o.endpoint, "dataDir", o.dataDir, "node", o.nodeID)

	if o.kubeletEndpoint != "" {
		regPath := filepath.Join(o.registrationDir, o.driverName+"-reg.sock")
		regListener, err := listenUnix(regPath)
		if err != nil {
			return err
		}
		reg := grpc.NewServer()
		registerapi.RegisterRegistrationServer(reg, registration{driverName: o.driverName, endpoint: o.kubeletEndpoint})
		servers = append(servers, reg)
		go func() { errs <- reg.Serve(regListener) }()
		slog.Info("serving kubelet registration", "socket", regPath, "kubeletEndpoint", o.kubeletEndpoint)
	}

	signals := make(chan os.Signal, 1)
	signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
	select {
	case s := <-signals:
		slog.Info("stopping", "signal", s.String())
		for _, s := range servers {
			s.GracefulStop()
		}
		return nil
	case err := <-errs:
		return err
	}
}

// listenUnix removes a socket left by an earlier run (a restarted container) before listening.
func listenUnix(path string) (net.Listener, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, fmt.Errorf("socket folder %s: %w", filepath.Dir(path), err)
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("removing the old socket %s: %w", path, err)
	}
	l, err := net.Listen("unix", path)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %w", path, err)
	}
	return l, nil
}

// logCalls writes one line per CSI call that changes something, and every failure.
func logCalls(ctx context.Context, req any, info *grpc.UnaryServerInfo, handler grpc.UnaryHandler) (any, error) {
	resp, err := handler(ctx, req)
	switch {
	case err != nil:
		slog.Warn("csi call failed", "method", info.FullMethod, "err", err)
	case !quiet[info.FullMethod]:
		slog.Info("csi call", "method", info.FullMethod)
	}
	return resp, err
}

// Calls the sidecars and the kubelet repeat all the time; logging them would drown the rest.
var quiet = map[string]bool{
	"/csi.v1.Identity/Probe":                       true,
	"/csi.v1.Identity/GetPluginInfo":               true,
	"/csi.v1.Identity/GetPluginCapabilities":       true,
	"/csi.v1.Controller/ControllerGetCapabilities": true,
	"/csi.v1.Node/NodeGetCapabilities":             true,
	"/csi.v1.Node/NodeGetInfo":                     true,
}

type registration struct {
	registerapi.UnimplementedRegistrationServer
	driverName string
	endpoint   string
}

func (r registration) GetInfo(context.Context, *registerapi.InfoRequest) (*registerapi.PluginInfo, error) {
	return &registerapi.PluginInfo{
		Type:              registerapi.CSIPlugin,
		Name:              r.driverName,
		Endpoint:          r.endpoint,
		SupportedVersions: []string{"1.0.0"},
	}, nil
}

func (r registration) NotifyRegistrationStatus(_ context.Context, s *registerapi.RegistrationStatus) (*registerapi.RegistrationStatusResponse, error) {
	if s.PluginRegistered {
		slog.Info("registered with the kubelet", "driver", r.driverName)
	} else {
		slog.Error("the kubelet refused the registration", "driver", r.driverName, "err", s.Error)
	}
	return &registerapi.RegistrationStatusResponse{}, nil
}

type identity struct {
	csi.UnimplementedIdentityServer
	name string
}

func (i identity) GetPluginInfo(context.Context, *csi.GetPluginInfoRequest) (*csi.GetPluginInfoResponse, error) {
	return &csi.GetPluginInfoResponse{Name: i.name, VendorVersion: driverVersion}, nil
}

func (i identity) GetPluginCapabilities(context.Context, *csi.GetPluginCapabilitiesRequest) (*csi.GetPluginCapabilitiesResponse, error) {
	return &csi.GetPluginCapabilitiesResponse{Capabilities: []*csi.PluginCapability{{
		Type: &csi.PluginCapability_Service_{Service: &csi.PluginCapability_Service{Type: csi.PluginCapability_Service_CONTROLLER_SERVICE}},
	}}}, nil
}

func (i identity) Probe(context.Context, *csi.ProbeRequest) (*csi.ProbeResponse, error) {
	return &csi.ProbeResponse{}, nil
}
