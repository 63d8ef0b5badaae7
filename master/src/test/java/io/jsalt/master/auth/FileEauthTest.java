package io.jsalt.master.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileEauthTest {
    @TempDir
    Path dir;

    @Test
    void plaintextTextFileChecksThePasswordOfTheNamedUser() throws Exception {
        Path users = Files.writeString(dir.resolve("users"), "thatch:s3cret\nbob:other\n");
        FileEauth eauth = new FileEauth(Map.of("filename", users.toString()));
        assertThat(eauth.matches("thatch", "s3cret")).isTrue();
        assertThat(eauth.matches("thatch", "other")).isFalse();
        assertThat(eauth.matches("nobody", "s3cret")).isFalse();
    }

    @Test
    void textFileWithSha256AndCustomFieldsAsSaltsLegacyExample() throws Exception {
        // Salt's docs: ^hashtype md5, ^username_field 2, ^password_field 3, ^field_separator '|'
        String sha = "2bb80d537b1da3e38bd30361aa855686bde0eacd7162fef6a25fe97bf527a25b"; // sha256("secret")
        Path users = Files.writeString(dir.resolve("legacy"), "1|trey|" + sha + "\n");
        FileEauth eauth = new FileEauth(Map.of("filename", users.toString(), "hashtype", "sha256",
                "username_field", 2, "password_field", 3, "field_separator", "|"));
        assertThat(eauth.matches("trey", "secret")).isTrue();
        assertThat(eauth.matches("trey", sha)).as("the stored hash is not a password").isFalse();
    }

    @Test
    void htpasswdWithBcryptAndSha() throws Exception {
        String bcrypt = OpenBSDBCrypt.generate("2y", "pw1".toCharArray(), new byte[16], 5);
        Path users = Files.writeString(dir.resolve("htpasswd"), "anna:" + bcrypt + "\nolaf:{SHA}W6ph5Mm5Pz8GgiULbPgzG37mj9g=\n");
        FileEauth eauth = new FileEauth(Map.of("filename", users.toString(), "filetype", "htpasswd"));
        assertThat(eauth.matches("anna", "pw1")).isTrue();
        assertThat(eauth.matches("anna", "pw2")).isFalse();
        assertThat(eauth.matches("olaf", "password")).isTrue();
        assertThat(eauth.matches("olaf", "Password")).isFalse();
    }

    @Test
    void apr1HashesAreRefusedNotAccepted() throws Exception {
        Path users = Files.writeString(dir.resolve("htpasswd"), "anna:$apr1$abc$abcdefghijklmnopqrstuv\n");
        assertThat(new FileEauth(Map.of("filename", users.toString(), "filetype", "htpasswd")).matches("anna", "x")).isFalse();
    }

    @Test
    void missingFileRefusesAndBadOptionsAreClearErrors() {
        assertThat(new FileEauth(Map.of("filename", dir.resolve("none").toString())).matches("a", "b")).isFalse();
        assertThatThrownBy(() -> new FileEauth(Map.of())).hasMessageContaining("^filename");
        assertThatThrownBy(() -> new FileEauth(Map.of("filename", "x", "filetype", "htdigest"))).hasMessageContaining("text or htpasswd");
        assertThatThrownBy(() -> new FileEauth(Map.of("filename", "x", "hashtype", "crc32"))).hasMessageContaining("crc32");
    }
}
