package dev.varroa.testfixtures.git;

import org.eclipse.jgit.api.Git;
import org.eclipse.jgit.api.errors.TransportException;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.revwalk.RevCommit;
import org.eclipse.jgit.transport.UsernamePasswordCredentialsProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Collection;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

@ExtendWith(GitServerExtension.class)
class GitServerIT {

    private static final String JCASC = "jenkins:\n  systemMessage: \"managed by varroa\"\n";

    @TempDir
    Path workspace;

    @Test
    void clonesOverHttpAndSeesTheCommittedFile(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("bundle-http");
        String commit = repository.commit(Map.of("casc/jenkins.yaml", JCASC), "Add JCasC");

        try (Git clone = cloneFrom(git.httpUrl("bundle-http"), "clone")) {
            assertThat(workspace.resolve("clone/casc/jenkins.yaml")).hasContent(JCASC);
            assertThat(clone.getRepository().resolve(Constants.HEAD).name()).isEqualTo(commit);
            assertThat(clone.getRepository().getBranch()).isEqualTo(GitRepository.DEFAULT_BRANCH);
        }
    }

    @Test
    void clonesOverFileUrlAndSeesTheCommittedFile(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("bundle-file");
        repository.commit(Map.of("plugins.txt", "git:5.2.1\n"), "Add plugins");

        try (Git clone = cloneFrom(repository.fileUrl(), "clone")) {
            assertThat(repository.fileUrl()).startsWith("file:///").endsWith("bundle-file.git");
            assertThat(workspace.resolve("clone/plugins.txt")).hasContent("git:5.2.1\n");
        }
    }

    @Test
    void keepsEarlierFilesWhenCommittingOntoABranch(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("bundle-branch");
        String first = repository.commit("release", Map.of("a.txt", "one"), "First");
        String second = repository.commit("release", Map.of("b.txt", "two", "a.txt", "uno"), "Second");

        try (Git clone = Git.cloneRepository().setURI(repository.httpUrl()).setBranch("release")
                .setDirectory(workspace.resolve("clone").toFile()).call()) {
            RevCommit head = clone.log().setMaxCount(1).call().iterator().next();
            assertThat(head.getName()).isEqualTo(second);
            assertThat(head.getParent(0).getName()).isEqualTo(first);
            assertThat(workspace.resolve("clone/a.txt")).hasContent("uno");
            assertThat(workspace.resolve("clone/b.txt")).hasContent("two");
        }
    }

    @Test
    void advertisesTagsOverHttp(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("bundle-tags");
        String commit = repository.commit(Map.of("README.md", "v1"), "Release");
        repository.tag("v1.0.0", commit);

        Collection<Ref> tags = Git.lsRemoteRepository().setRemote(repository.httpUrl()).setTags(true).call();

        assertThat(tags).extracting(Ref::getName).containsExactly("refs/tags/v1.0.0");
        assertThat(repository.resolve("v1.0.0^{commit}")).hasValue(commit);
    }

    @Test
    void acceptsAPushOverHttp(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("bundle-push");
        repository.commit(Map.of("plugins.txt", "git:5.2.1\n"), "Initial");

        try (Git clone = cloneFrom(repository.httpUrl(), "clone")) {
            Files.writeString(workspace.resolve("clone/jenkins.yaml"), JCASC);
            clone.add().addFilepattern("jenkins.yaml").call();
            RevCommit pushed = clone.commit().setMessage("Add JCasC").setAuthor("Dev", "dev@varroa.dev")
                    .setCommitter("Dev", "dev@varroa.dev").call();
            clone.push().call();

            assertThat(repository.resolve(GitRepository.DEFAULT_BRANCH)).hasValue(pushed.getName());
        }
    }

    @Test
    void servesAProtectedRepositoryToTheRightCredentials(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("private-bundle").requireBasicAuth("jenkins", "s3cret");
        repository.commit(Map.of("plugins.txt", "git\n"), "Initial");

        try (Git clone = Git.cloneRepository().setURI(repository.httpUrl())
                .setCredentialsProvider(new UsernamePasswordCredentialsProvider("jenkins", "s3cret"))
                .setDirectory(workspace.resolve("clone").toFile()).call()) {
            assertThat(workspace.resolve("clone/plugins.txt")).hasContent("git\n");
        }
    }

    @Test
    void refusesWrongBasicAuthCredentials(GitServer git) throws Exception {
        GitRepository repository = git.createRepository("locked-bundle").requireBasicAuth("jenkins", "s3cret");
        repository.commit(Map.of("plugins.txt", "git\n"), "Initial");
        URI infoRefs = URI.create(repository.httpUrl() + "/info/refs?service=git-upload-pack");

        HttpResponse<Void> wrongPassword = HttpClient.newHttpClient().send(HttpRequest.newBuilder(infoRefs)
                        .header("Authorization", basic("jenkins", "wrong")).GET().build(),
                HttpResponse.BodyHandlers.discarding());

        assertThat(wrongPassword.statusCode()).isEqualTo(401);
        assertThat(wrongPassword.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(
                challenge -> assertThat(challenge).startsWith("Basic "));
        assertThatThrownBy(() -> Git.cloneRepository().setURI(repository.httpUrl())
                .setCredentialsProvider(new UsernamePasswordCredentialsProvider("jenkins", "wrong"))
                .setDirectory(workspace.resolve("refused").toFile()).call())
                .isInstanceOf(TransportException.class)
                .hasMessageContaining("not authorized");
    }

    private Git cloneFrom(String url, String directory) throws Exception {
        return Git.cloneRepository().setURI(url).setDirectory(workspace.resolve(directory).toFile()).call();
    }

    private static String basic(String username, String password) {
        return "Basic " + Base64.getEncoder().encodeToString(
                (username + ":" + password).getBytes(StandardCharsets.UTF_8));
    }
}
