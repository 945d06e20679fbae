package dev.varroa.testfixtures.git;

import org.eclipse.jgit.api.errors.InvalidRefNameException;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * Bare Git repositories in a throwaway directory, reachable as {@code file://} and over smart HTTP
 * (clone, fetch and push) on loopback.
 */
public final class GitServer {

    private static final Pattern REPOSITORY_NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]*");
    private static final String GIT_SUFFIX = ".git";

    private final Path root;
    private final URI httpBase;
    private final RepositoryCredentials credentials;

    GitServer(Path root, URI httpBase, RepositoryCredentials credentials) {
        this.root = root;
        this.httpBase = httpBase;
        this.credentials = credentials;
    }

    /** Creates an empty bare repository {@code name} whose HEAD is {@value GitRepository#DEFAULT_BRANCH}. */
    public GitRepository createRepository(String name) throws IOException {
        Path gitDir = gitDir(name);
        if (Files.exists(gitDir)) {
            throw new IllegalArgumentException("repository " + name + " already exists at " + gitDir);
        }
        try (Repository repository = bareRepositoryBuilder(gitDir).build()) {
            repository.create(true);
        }
        return new GitRepository(name, gitDir, fileUrl(name), httpUrl(name), credentials);
    }

    private static FileRepositoryBuilder bareRepositoryBuilder(Path gitDir) {
        try {
            return new FileRepositoryBuilder()
                    .setGitDir(gitDir.toFile())
                    .setInitialBranch(GitRepository.DEFAULT_BRANCH);
        } catch (InvalidRefNameException e) {
            throw new IllegalStateException("default branch " + GitRepository.DEFAULT_BRANCH + " is not a valid ref name", e);
        }
    }

    /** {@code file:///.../<name>.git} */
    public String fileUrl(String name) {
        return "file://" + gitDir(name).toAbsolutePath();
    }

    /** {@code http://127.0.0.1:PORT/git/<name>.git} */
    public String httpUrl(String name) {
        return httpBase.resolve(checkedName(name) + GIT_SUFFIX).toString();
    }

    /** The directory holding every {@code <name>.git}. */
    public Path root() {
        return root;
    }

    private Path gitDir(String name) {
        return root.resolve(checkedName(name) + GIT_SUFFIX);
    }

    private static String checkedName(String name) {
        if (!REPOSITORY_NAME.matcher(name).matches() || name.endsWith(GIT_SUFFIX)) {
            throw new IllegalArgumentException("repository name " + name + " must match " + REPOSITORY_NAME
                    + " and not end in " + GIT_SUFFIX + " (the server adds it)");
        }
        return name;
    }

    @Override
    public String toString() {
        return "GitServer[" + httpBase + ", " + root + "]";
    }
}
