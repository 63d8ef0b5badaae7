package io.jsalt.minion.returns;

import static org.assertj.core.api.Assertions.assertThat;

import io.jsalt.minion.testing.CapturedLogs;
import io.jsalt.minion.testing.SaltVectors;
import io.jsalt.transport.message.ReturnLoad;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyPair;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ReturnOutboxTest {
    private static final KeyPair MINION = SaltVectors.minionKeyPair();
    private static final String JID = "20260101000000000001";

    @TempDir
    Path cachedir;

    private Path dir() {
        return cachedir.resolve("returns");
    }

    private static Map<String, Object> signedReturn(String jid, Object ret) {
        return new ReturnLoad("web-1", jid, "test.echo", List.of("hello"), ret, 0, true).toSignedLoad(MINION.getPrivate());
    }

    @Test
    void aKeptReturnSurvivesReopeningTheFolderAsAMinionRestartDoes() {
        new ReturnOutbox(dir()).put(JID, signedReturn(JID, "hello"));

        ReturnOutbox reopened = new ReturnOutbox(dir());

        assertThat(reopened.pending()).containsExactly(new ReturnOutbox.Entry(JID + ".return", JID));
        Map<String, Object> load = reopened.read(reopened.pending().get(0)).orElseThrow();
        assertThat(load).containsEntry("jid", JID).containsEntry("return", "hello").containsEntry("id", "web-1");
    }

    @Test
    void aSignedReturnStillVerifiesAfterTheRoundTripThroughTheFile() {
        Map<String, Object> nested = Map.of("stdout", "ok", "lines", List.of(1, 2, 3), "nothing", "", "bytes", new byte[] {(byte) 0xff, 0});
        ReturnOutbox outbox = new ReturnOutbox(dir());
        outbox.put(JID, signedReturn(JID, nested));

        Map<String, Object> load = outbox.read(outbox.pending().get(0)).orElseThrow();

        assertThat(ReturnLoad.signatureValid(load, MINION.getPublic())).isTrue();
    }

    @Test
    void pendingFilesAreReadableByTheOwnerOnlyInAPrivateFolder() throws Exception {
        ReturnOutbox outbox = new ReturnOutbox(dir());
        outbox.put(JID, signedReturn(JID, true));

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir()))).isEqualTo("rwx------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir().resolve(JID + ".return")))).isEqualTo("rw-------");
    }

    @Test
    void anExistingFolderOpenToOthersIsMadePrivate() throws Exception {
        Files.createDirectories(dir(), PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.setPosixFilePermissions(dir(), PosixFilePermissions.fromString("rwxrwxrwx"));

        new ReturnOutbox(dir());

        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir()))).isEqualTo("rwx------");
    }

    @Test
    void aSecondReturnForTheSameJobReplacesTheFirstSoAJobIsNeverKeptTwice() {
        ReturnOutbox outbox = new ReturnOutbox(dir());
        outbox.put(JID, signedReturn(JID, "first"));
        outbox.put(JID, signedReturn(JID, "second"));

        assertThat(outbox.pending()).hasSize(1);
        assertThat(outbox.read(outbox.pending().get(0)).orElseThrow()).containsEntry("return", "second");
    }

    @Test
    void returnsThatAskTheMasterForAJidEachKeepTheirOwnFile() {
        ReturnOutbox outbox = new ReturnOutbox(dir());
        outbox.put("req", signedReturn("req", 1));
        outbox.put("req", signedReturn("req", 2));
        outbox.put(JID, signedReturn(JID, 3));

        List<ReturnOutbox.Entry> pending = outbox.pending();
        assertThat(pending).hasSize(3);
        assertThat(pending.get(0).jid()).as("jobs with a jid first, by age").isEqualTo(JID);
        assertThat(pending.subList(1, 3)).allSatisfy(e -> {
            assertThat(e.jid()).isEqualTo("req");
            assertThat(e.name()).matches("req-[0-9a-f-]{36}\\.return");
        });
    }

    @Test
    void removeForgetsTheReturn() {
        ReturnOutbox outbox = new ReturnOutbox(dir());
        ReturnOutbox.Entry entry = outbox.put(JID, signedReturn(JID, true)).orElseThrow();

        outbox.remove(entry);

        assertThat(outbox.pending()).isEmpty();
        assertThat(dir()).isEmptyDirectory();
    }

    @ParameterizedTest
    @ValueSource(strings = {"../../../etc/passwd", "2026010100000000000", "202601010000000000011", "2026010100000000000a",
            "req/../x", "", "REQ", "20260101000000000001/..", "20260101000000000001\u0000"})
    void aJidThatCannotNameAFileIsRefusedAndNothingIsWritten(String jid) throws Exception {
        ReturnOutbox outbox = new ReturnOutbox(dir());

        assertThat(outbox.put(jid, signedReturn(JID, true))).isEmpty();

        try (Stream<Path> all = Files.walk(cachedir)) {
            assertThat(all.filter(Files::isRegularFile)).isEmpty();
        }
    }

    @Test
    void writesLeaveNoTemporaryFileBehind() throws Exception {
        ReturnOutbox outbox = new ReturnOutbox(dir());
        for (int i = 0; i < 5; i++) {
            outbox.put(String.format("2026010100000000%04d", i), signedReturn(JID, i));
        }

        try (Stream<Path> files = Files.list(dir())) {
            assertThat(files.map(p -> p.getFileName().toString())).hasSize(5).allMatch(n -> n.matches("[0-9]{20}\\.return"));
        }
    }

    @Test
    void aHalfWrittenTemporaryFileFromACrashIsNeverSentAndIsRemovedOnOpen() throws Exception {
        Files.createDirectories(dir());
        Path crashed = dir().resolve(".tmp-123456.return");
        Files.write(crashed, new byte[] {(byte) 0x88, (byte) 0xa3}); // a map cut short

        ReturnOutbox outbox = new ReturnOutbox(dir());

        assertThat(outbox.pending()).isEmpty();
        assertThat(crashed).doesNotExist();
    }

    @Test
    void filesItDidNotNameAreIgnored() throws Exception {
        Files.createDirectories(dir());
        Files.writeString(dir().resolve("evil.return"), "x");
        Files.writeString(dir().resolve("notes.txt"), "x");
        Files.createSymbolicLink(dir().resolve("20260101000000000009.return"), cachedir.resolve("elsewhere"));

        assertThat(new ReturnOutbox(dir()).pending()).isEmpty();
    }

    @Test
    void anUnreadableFileIsDroppedWithOneLogLine() throws Exception {
        ReturnOutbox outbox = new ReturnOutbox(dir());
        Files.write(dir().resolve(JID + ".return"), new byte[] {(byte) 0xc1}); // never valid msgpack

        assertThat(outbox.read(outbox.pending().get(0))).isEmpty();

        assertThat(outbox.pending()).isEmpty();
        assertThat(CapturedLogs.matching("WARN", "unreadable pending return")).isNotEmpty();
    }

    @Test
    void aFullOutboxDropsNewReturnsButStillReplacesAKeptOne() {
        ReturnOutbox outbox = new ReturnOutbox(dir(), 2);
        outbox.put("20260101000000000001", signedReturn(JID, 1));
        outbox.put("20260101000000000002", signedReturn(JID, 2));

        assertThat(outbox.put("20260101000000000003", signedReturn(JID, 3))).isEmpty();
        assertThat(outbox.put("20260101000000000002", signedReturn(JID, 22))).isPresent();
        assertThat(outbox.pending()).extracting(ReturnOutbox.Entry::jid).containsExactly("20260101000000000001", "20260101000000000002");
    }
}
