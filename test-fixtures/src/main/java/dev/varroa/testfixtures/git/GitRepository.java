package dev.varroa.testfixtures.git;

import org.eclipse.jgit.dircache.DirCache;
import org.eclipse.jgit.dircache.DirCacheEditor;
import org.eclipse.jgit.dircache.DirCacheEntry;
import org.eclipse.jgit.lib.CommitBuilder;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.FileMode;
import org.eclipse.jgit.lib.ObjectId;
import org.eclipse.jgit.lib.ObjectInserter;
import org.eclipse.jgit.lib.ObjectReader;
import org.eclipse.jgit.lib.PersonIdent;
import org.eclipse.jgit.lib.Ref;
import org.eclipse.jgit.lib.RefUpdate;
import org.eclipse.jgit.lib.Repository;
import org.eclipse.jgit.lib.TagBuilder;
import org.eclipse.jgit.revwalk.RevWalk;
import org.eclipse.jgit.storage.file.FileRepositoryBuilder;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A bare repository served by {@link GitServer}. Commits and tags are written straight into the
 * object database, without a working tree, the way a push would leave them.
 */
public final class GitRepository {

    public static final String DEFAULT_BRANCH = "main";

    private static final PersonIdent AUTHOR = new PersonIdent("Varroa Test", "test@varroa.dev");

    private final String name;
    private final Path gitDir;
    private final String fileUrl;
    private final String httpUrl;
    private final RepositoryCredentials credentials;

    GitRepository(String name, Path gitDir, String fileUrl, String httpUrl, RepositoryCredentials credentials) {
        this.name = name;
        this.gitDir = gitDir;
        this.fileUrl = fileUrl;
        this.httpUrl = httpUrl;
        this.credentials = credentials;
    }

    public String name() {
        return name;
    }

    public Path gitDir() {
        return gitDir;
    }

    public String fileUrl() {
        return fileUrl;
    }

    public String httpUrl() {
        return httpUrl;
    }

    /** From now on, HTTP requests to this repository need these basic-auth credentials (file:// stays open). */
    public GitRepository requireBasicAuth(String username, String password) {
        credentials.require(name, new BasicCredentials(username, password));
        return this;
    }

    /** Commits {@code files} (path to UTF-8 content) onto {@value #DEFAULT_BRANCH}; returns the commit id. */
    public String commit(Map<String, String> files, String message) throws IOException {
        return commit(DEFAULT_BRANCH, files, message);
    }

    /**
     * Commits {@code files} (path to UTF-8 content, added or replaced; other files are kept) onto
     * {@code branch}, creating the branch if needed; returns the commit id.
     */
    public String commit(String branch, Map<String, String> files, String message) throws IOException {
        String refName = Constants.R_HEADS + branch;
        try (Repository repository = open();
                ObjectInserter inserter = repository.newObjectInserter();
                ObjectReader reader = repository.newObjectReader()) {
            Ref current = repository.exactRef(refName);
            DirCache tree = current == null ? DirCache.newInCore() : treeOf(reader, current.getObjectId());
            DirCacheEditor editor = tree.editor();
            for (Map.Entry<String, String> file : new TreeMap<>(files).entrySet()) {
                ObjectId blob = inserter.insert(Constants.OBJ_BLOB, file.getValue().getBytes(StandardCharsets.UTF_8));
                editor.add(new DirCacheEditor.PathEdit(file.getKey()) {
                    @Override
                    public void apply(DirCacheEntry entry) {
                        entry.setFileMode(FileMode.REGULAR_FILE);
                        entry.setObjectId(blob);
                    }
                });
            }
            editor.finish();

            CommitBuilder commit = new CommitBuilder();
            commit.setTreeId(tree.writeTree(inserter));
            if (current != null) {
                commit.setParentId(current.getObjectId());
            }
            commit.setAuthor(AUTHOR);
            commit.setCommitter(AUTHOR);
            commit.setMessage(message);
            ObjectId commitId = inserter.insert(commit);
            inserter.flush();

            ObjectId expected = current == null ? ObjectId.zeroId() : current.getObjectId();
            moveRef(repository, refName, expected, commitId, "commit: " + message);
            return commitId.name();
        }
    }

    /** Creates the annotated tag {@code tagName} on {@code commitId}; returns the tag object's id. */
    public String tag(String tagName, String commitId) throws IOException {
        try (Repository repository = open(); ObjectInserter inserter = repository.newObjectInserter()) {
            ObjectId target = ObjectId.fromString(commitId);
            if (!repository.getObjectDatabase().has(target)) {
                throw new IllegalArgumentException("cannot tag " + tagName + " in " + name + ": no commit " + commitId);
            }
            TagBuilder tag = new TagBuilder();
            tag.setTag(tagName);
            tag.setObjectId(target, Constants.OBJ_COMMIT);
            tag.setTagger(AUTHOR);
            tag.setMessage(tagName + "\n");
            ObjectId tagId = inserter.insert(tag);
            inserter.flush();
            moveRef(repository, Constants.R_TAGS + tagName, ObjectId.zeroId(), tagId, "tag: " + tagName);
            return tagId.name();
        }
    }

    /** The commit a revision ({@code main}, {@code v1.0^{commit}}, an id) points to, if it exists. */
    public Optional<String> resolve(String revision) throws IOException {
        try (Repository repository = open()) {
            return Optional.ofNullable(repository.resolve(revision)).map(ObjectId::name);
        }
    }

    private Repository open() throws IOException {
        return new FileRepositoryBuilder().setGitDir(gitDir.toFile()).setMustExist(true).build();
    }

    private static DirCache treeOf(ObjectReader reader, ObjectId commitId) throws IOException {
        try (RevWalk walk = new RevWalk(reader)) {
            return DirCache.read(reader, walk.parseCommit(commitId).getTree());
        }
    }

    private void moveRef(Repository repository, String refName, ObjectId expected, ObjectId target, String reflog)
            throws IOException {
        RefUpdate update = repository.updateRef(refName);
        update.setExpectedOldObjectId(expected);
        update.setNewObjectId(target);
        update.setRefLogIdent(AUTHOR);
        update.setRefLogMessage(reflog, false);
        RefUpdate.Result result = update.update();
        if (result != RefUpdate.Result.NEW && result != RefUpdate.Result.FAST_FORWARD) {
            throw new IOException("cannot move " + refName + " of repository " + name + " to " + target.name()
                    + ": " + result);
        }
    }

    @Override
    public String toString() {
        return "GitRepository[" + name + " at " + gitDir + "]";
    }
}
