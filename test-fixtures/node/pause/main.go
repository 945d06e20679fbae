// The pod sandbox's first process: holds the pod's namespaces open, reaps the orphans it inherits as PID 1,
// and ends on SIGINT or SIGTERM. The node fixture builds it because no registry here serves a pause image.
package main

import (
	"os"
	"os/signal"
	"syscall"
)

func reapChildren() {
	for {
		var status syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &status, syscall.WNOHANG, nil)
		if err != nil || pid <= 0 {
			return
		}
	}
}

func main() {
	signals := make(chan os.Signal, 8)
	signal.Notify(signals, syscall.SIGCHLD, syscall.SIGINT, syscall.SIGTERM)
	for s := range signals {
		if s != syscall.SIGCHLD {
			os.Exit(0)
		}
		reapChildren()
	}
}
