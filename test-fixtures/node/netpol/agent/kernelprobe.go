package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/google/nftables"
	"github.com/google/nftables/binaryutil"
	"github.com/google/nftables/expr"
	"golang.org/x/sys/unix"
)

// The controller writes its rules in one transaction and logs, but does not stop on, a failure: without this
// probe an agent on a kernel that lacks one of its expressions runs, reads its queue and enforces nothing.
type ruleExpression struct {
	name   string // as nft would print it
	config string // the kernel option that provides it
	exprs  []expr.Any
}

func agentExpressions(queueID int) []ruleExpression {
	return []ruleExpression{
		{"meta l4proto / payload / cmp", "CONFIG_NF_TABLES", []expr.Any{
			&expr.Meta{Key: expr.MetaKeyL4PROTO, Register: 1},
			&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{unix.IPPROTO_UDP}},
			&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseTransportHeader, Offset: 2, Len: 2},
			&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: binaryutil.BigEndian.PutUint16(53)},
			&expr.Verdict{Kind: expr.VerdictAccept}}},
		{"meta skuid", "CONFIG_NF_TABLES", []expr.Any{
			&expr.Meta{Key: expr.MetaKeySKUID, Register: 1},
			&expr.Cmp{Op: expr.CmpOpEq, Register: 1, Data: []byte{0, 0, 0, 0}},
			&expr.Verdict{Kind: expr.VerdictAccept}}},
		{"ct state", "CONFIG_NFT_CT", []expr.Any{
			&expr.Ct{Register: 1, Key: expr.CtKeySTATE},
			&expr.Bitwise{SourceRegister: 1, DestRegister: 1, Len: 4,
				Mask: binaryutil.NativeEndian.PutUint32(expr.CtStateBitESTABLISHED | expr.CtStateBitRELATED), Xor: []byte{0, 0, 0, 0}},
			&expr.Cmp{Op: expr.CmpOpNeq, Register: 1, Data: []byte{0, 0, 0, 0}},
			&expr.Verdict{Kind: expr.VerdictAccept}}},
		{"ip saddr @set", "CONFIG_NF_TABLES", []expr.Any{
			&expr.Payload{DestRegister: 1, Base: expr.PayloadBaseNetworkHeader, Offset: 12, Len: 4},
			&expr.Lookup{SourceRegister: 1, SetName: "probe-v4"},
			&expr.Verdict{Kind: expr.VerdictAccept}}},
		{fmt.Sprintf("queue to %d", queueID), "CONFIG_NFT_QUEUE", []expr.Any{&expr.Queue{Num: uint16(queueID)}}},
	}
}

// probeKernel writes each kind of rule the agent writes into a throwaway table (a chain on no hook, so no packet
// meets it) and names the first the kernel refuses.
func probeKernel(tableName string, queueID int) error {
	table := &nftables.Table{Name: tableName + "-probe", Family: nftables.TableFamilyINet}
	defer func() {
		if conn, err := nftables.New(); err == nil {
			conn.AddTable(table)
			conn.DelTable(table)
			_ = conn.Flush()
		}
	}()
	for _, e := range agentExpressions(queueID) {
		conn, err := nftables.New()
		if err != nil {
			return fmt.Errorf("cannot open nftables: %w: run as root with CAP_NET_ADMIN", err)
		}
		conn.AddTable(table)
		conn.DelTable(table)
		conn.AddTable(table)
		set := &nftables.Set{Table: table, Name: "probe-v4", KeyType: nftables.TypeIPAddr}
		if err := conn.AddSet(set, nil); err != nil {
			return fmt.Errorf("cannot describe the probe's set: %w", err)
		}
		chain := conn.AddChain(&nftables.Chain{Name: "probe", Table: table})
		conn.AddRule(&nftables.Rule{Table: table, Chain: chain, Exprs: e.exprs})
		if err := conn.Flush(); err != nil {
			hint := ""
			if errors.Is(err, unix.ENOENT) || strings.Contains(err.Error(), "no such file or directory") {
				hint = fmt.Sprintf(": this kernel has no such expression; it needs %s (built in, or its module loaded)", e.config)
			}
			return fmt.Errorf("nftables refused the agent's rule %q: %v%s", e.name, err, hint)
		}
	}
	return nil
}
