// Command kube-network-policies runs the NetworkPolicy agent of sigs.k8s.io/kube-network-policies as a host
// process of the real node. Upstream's own main only reads the in-cluster configuration of a DaemonSet pod
// (a ServiceAccount token at a fixed path) and drops its --disable-nri flag, so this main builds the same
// controller from the module's library with a kubeconfig, the node's name and NRI off (containerd 1.6 has none).
// Its extra modes help a node's start, teardown and leftover check without the nft tool: --check-kernel names an
// nftables expression this kernel lacks, --cleanup deletes the agent's table, --list-nftables prints every
// nftables table of the current network namespace.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/google/nftables"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"golang.org/x/sys/unix"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
	"sigs.k8s.io/kube-network-policies/pkg/networkpolicy"
)

// upstream's names, so a node running this agent looks like one running the DaemonSet
const (
	defaultTableName = "kube-network-policies"
	defaultQueueID   = 100
)

// how long a stopping agent may take to delete its table and release its queue
const shutdownDeadline = 10 * time.Second

func main() {
	os.Exit(run())
}

func run() int {
	kubeconfig := flag.String("kubeconfig", "", "kubeconfig of the agent's identity (required unless --cleanup or --list-nftables)")
	nodeName := flag.String("hostname-override", "", "the Node's name as the kubelet registers it; only pods with this spec.nodeName are enforced (required)")
	queueID := flag.Int("nfqueue-id", defaultQueueID, "the NFQUEUE number the first packet of each connection is sent to")
	tableName := flag.String("nftables-table", defaultTableName, "name of the agent's inet nftables table")
	metricsAddress := flag.String("metrics-bind-address", "127.0.0.1:9080", "host:port of the Prometheus metrics endpoint")
	failOpen := flag.Bool("fail-open", false, "accept packets while the agent is not reading its queue (default: drop them)")
	bug1766Fix := flag.Bool("netfilter-bug-1766-fix", true, "queue DNS packets on prerouting too (netfilter bug 1766; not needed on kernels 6.12+)")
	cleanup := flag.Bool("cleanup", false, "delete the agent's nftables table in this network namespace and exit")
	checkKernel := flag.Bool("check-kernel", false, "write each kind of rule the agent writes into a throwaway table, name the first this kernel refuses, and exit")
	listTables := flag.Bool("list-nftables", false, "print every nftables table of this network namespace as 'nftables FAMILY NAME' and exit")
	klog.InitFlags(flag.CommandLine)
	flag.Parse()

	switch {
	case *listTables:
		return printTables()
	case *cleanup:
		return deleteTable(*tableName)
	case *checkKernel:
		if err := probeKernel(*tableName, *queueID); err != nil {
			fmt.Fprintf(os.Stderr, "kube-network-policies: %v\n", err)
			return 1
		}
		fmt.Println("kube-network-policies: this kernel accepts every nftables rule the agent writes")
		return 0
	}
	if *kubeconfig == "" || *nodeName == "" {
		fmt.Fprintln(os.Stderr, "kube-network-policies: --kubeconfig and --hostname-override are required: pass the agent's kubeconfig and the Node's name")
		return 2
	}
	if _, _, err := net.SplitHostPort(*metricsAddress); err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: --metrics-bind-address %q is not host:port: %v\n", *metricsAddress, err)
		return 2
	}
	// fail before reading the API if this kernel cannot hold the agent's rules
	if err := probeKernel(*tableName, *queueID); err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: %v\n", err)
		return 1
	}

	config, err := clientcmd.BuildConfigFromFlags("", *kubeconfig)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: --kubeconfig %s: %v: pass a readable kubeconfig\n", *kubeconfig, err)
		return 1
	}
	// protobuf for the core API, as upstream does at scale
	config.AcceptContentTypes = "application/vnd.kubernetes.protobuf,application/json"
	config.ContentType = "application/vnd.kubernetes.protobuf"
	client, err := kubernetes.NewForConfig(config)
	if err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: client from --kubeconfig %s: %v\n", *kubeconfig, err)
		return 1
	}

	ctx, stop := signal.NotifyContext(context.Background(), unix.SIGINT, syscall.SIGTERM)
	defer stop()

	// all pods, not only this node's: a policy's "from" selector must recognise client pods of any node by IP
	factory := informers.NewSharedInformerFactory(client, 0)
	controller, err := networkpolicy.NewController(client,
		factory.Networking().V1().NetworkPolicies(),
		factory.Core().V1().Namespaces(),
		factory.Core().V1().Pods(),
		nil, nil, nil, nil,
		networkpolicy.Config{
			FailOpen:            *failOpen,
			QueueID:             *queueID,
			NodeName:            *nodeName,
			NetfilterBug1766Fix: *bug1766Fix,
			NFTableName:         *tableName,
			NRIdisabled:         true,
		})
	if err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: cannot create the controller: %v\n", err)
		return 1
	}

	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.Handler())
	metrics := &http.Server{Addr: *metricsAddress, Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() {
		if err := metrics.ListenAndServe(); err != nil && !errors.Is(err, http.ErrServerClosed) {
			klog.ErrorS(err, "metrics endpoint stopped", "address", *metricsAddress)
		}
	}()

	klog.InfoS("starting", "node", *nodeName, "nfqueue", *queueID, "table", "inet "+*tableName, "metrics", *metricsAddress)
	done := make(chan error, 1)
	go func() { done <- controller.Run(ctx) }()
	factory.Start(ctx.Done())

	code := 0
	select {
	case err := <-done:
		// Run returns before a stop only when it cannot open its queue
		if ctx.Err() == nil {
			klog.ErrorS(err, "the controller stopped", "nfqueue", *queueID)
			code = 1
		}
	case <-ctx.Done():
		select {
		case <-done:
		case <-time.After(shutdownDeadline):
			klog.InfoS("the controller did not stop in time; deleting its table here", "table", "inet "+*tableName)
			deleteTable(*tableName)
			code = 1
		}
	}
	shutdown, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	_ = metrics.Shutdown(shutdown)
	factory.Shutdown()
	klog.Flush()
	return code
}

func listNFTables() ([]*nftables.Table, error) {
	conn, err := nftables.New()
	if err != nil {
		return nil, err
	}
	return conn.ListTables()
}

func printTables() int {
	tables, err := listNFTables()
	if err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: cannot list nftables tables: %v: run as root (CAP_NET_ADMIN)\n", err)
		return 1
	}
	for _, t := range tables {
		fmt.Printf("nftables %s %s\n", familyName(t.Family), t.Name)
	}
	return 0
}

func deleteTable(name string) int {
	conn, err := nftables.New()
	if err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: cannot open nftables: %v: run as root (CAP_NET_ADMIN)\n", err)
		return 1
	}
	// add then delete: deleting a table that does not exist is then no error
	table := &nftables.Table{Name: name, Family: nftables.TableFamilyINet}
	conn.AddTable(table)
	conn.DelTable(table)
	if err := conn.Flush(); err != nil {
		fmt.Fprintf(os.Stderr, "kube-network-policies: cannot delete nftables table inet %s: %v\n", name, err)
		return 1
	}
	return 0
}

func familyName(f nftables.TableFamily) string {
	switch f {
	case nftables.TableFamilyINet:
		return "inet"
	case nftables.TableFamilyIPv4:
		return "ip"
	case nftables.TableFamilyIPv6:
		return "ip6"
	case nftables.TableFamilyARP:
		return "arp"
	case nftables.TableFamilyNetdev:
		return "netdev"
	case nftables.TableFamilyBridge:
		return "bridge"
	default:
		return fmt.Sprintf("family%d", f)
	}
}
