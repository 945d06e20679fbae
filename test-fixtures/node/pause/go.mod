module varroa.dev/node/pause

go 1.22
