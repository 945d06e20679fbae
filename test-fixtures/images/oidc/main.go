// The OpenID provider of the real-node tests: zitadel/oidc's example server (the same code as
// github.com/zitadel/oidc/v3/example/server, which test-fixtures/oidc/install.sh builds for the local tests) with
// the issuer taken from ISSUER, since in a pod behind a Service the example's fixed http://localhost:<port>/ would
// name the caller itself. PORT, USERS_FILE and REDIRECT_URI mean what they mean to the example server.
package main

import (
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"strings"

	"github.com/zitadel/oidc/v3/example/server/config"
	"github.com/zitadel/oidc/v3/example/server/exampleop"
	"github.com/zitadel/oidc/v3/example/server/storage"
)

func main() {
	cfg := config.FromEnvVars(&config.Config{Port: config.DefaultIssuerPort})
	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	issuer := os.Getenv("ISSUER")
	if issuer == "" {
		issuer = fmt.Sprintf("http://localhost:%s/", cfg.Port)
	}
	if !strings.HasSuffix(issuer, "/") {
		issuer += "/"
	}

	// The example's clients: web (secret "secret"), native (public, PKCE) and api.
	storage.RegisterClients(
		storage.NativeClient("native", cfg.RedirectURI...),
		storage.WebClient("web", "secret", cfg.RedirectURI...),
		storage.WebClient("api", "secret", cfg.RedirectURI...),
	)

	var users storage.UserStore
	if cfg.UsersFile == "" {
		users = storage.NewUserStore(issuer)
	} else {
		var err error
		if users, err = storage.StoreFromFile(cfg.UsersFile); err != nil {
			logger.Error("cannot read the users file: fix USERS_FILE or the JSON in it", "USERS_FILE", cfg.UsersFile, "error", err)
			os.Exit(1)
		}
	}

	router := exampleop.SetupServer(issuer, storage.NewStorage(users), logger, false)
	server := &http.Server{Addr: ":" + cfg.Port, Handler: router}
	logger.Info("oidc provider listening", "issuer", issuer, "port", cfg.Port)
	if err := server.ListenAndServe(); err != http.ErrServerClosed {
		logger.Error("oidc provider stopped", "port", cfg.Port, "error", err)
		os.Exit(1)
	}
}
