package io.jsalt.master.auth;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import com.sun.jna.ptr.PointerByReference;
import java.lang.ref.Reference;
import org.jvnet.libpam.PAMException;
import org.jvnet.libpam.impl.CLibrary;
import org.jvnet.libpam.impl.PAMLibrary;

/**
 * One PAM transaction ({@code pam_start}, {@code pam_authenticate}, {@code pam_setcred}, {@code pam_acct_mgmt},
 * {@code pam_end}) over libpam4j's own JNA bindings, answering every hidden prompt with the password as
 * libpam4j's {@code PAM.authenticate} does. That method also reads the account with {@code getpwnam} and
 * {@code getgrgid}, whose results live in one static libc buffer: two logins ending at once could swap accounts
 * (and so groups). Here the transaction touches no such call, so transactions of different users may run at
 * once, and the caller reads the account afterwards under one lock ({@link PamEauth}).
 */
final class PamConversation {
    private PamConversation() {
    }

    /** The user name PAM settled on ({@code PAM_USER}, a module may change it); a {@link PAMException} when refused. */
    static String authenticate(String service, String user, String password) throws PAMException {
        PAMLibrary.pam_conv.PamCallback answer = (count, messages, responses, appdata) -> {
            Pointer answers = CLibrary.libc.calloc(PAMLibrary.pam_response.SIZE, count); // PAM frees them
            responses.setPointer(0, answers);
            for (int i = 0; i < count; i++) {
                PAMLibrary.pam_message message = new PAMLibrary.pam_message(messages.getPointer((long) Native.POINTER_SIZE * i));
                if (message.msg_style == PAMLibrary.PAM_PROMPT_ECHO_OFF) {
                    PAMLibrary.pam_response response = new PAMLibrary.pam_response(answers.share((long) PAMLibrary.pam_response.SIZE * i));
                    response.setResp(password);
                    response.write();
                }
            }
            return PAMLibrary.PAM_SUCCESS;
        };
        PAMLibrary.pam_conv conv = new PAMLibrary.pam_conv(answer);
        PointerByReference handle = new PointerByReference();
        check(PAMLibrary.libpam.pam_start(service, user, conv, handle), "pam_start", null);
        PAMLibrary.pam_handle_t pam = new PAMLibrary.pam_handle_t(handle.getValue());
        int last = PAMLibrary.PAM_SUCCESS;
        try {
            last = PAMLibrary.libpam.pam_authenticate(pam, 0);
            check(last, "pam_authenticate", pam);
            last = PAMLibrary.libpam.pam_setcred(pam, 0);
            check(last, "pam_setcred", pam);
            last = PAMLibrary.libpam.pam_acct_mgmt(pam, 0);
            check(last, "pam_acct_mgmt", pam);
            PointerByReference name = new PointerByReference();
            last = PAMLibrary.libpam.pam_get_item(pam, PAMLibrary.PAM_USER, name);
            check(last, "pam_get_item", pam);
            return name.getValue() == null ? user : name.getValue().getString(0);
        } finally {
            PAMLibrary.libpam.pam_end(pam, last);
            Reference.reachabilityFence(conv); // libpam calls back into it until pam_end
            Reference.reachabilityFence(answer);
        }
    }

    private static void check(int result, String step, PAMLibrary.pam_handle_t pam) throws PAMException {
        if (result != PAMLibrary.PAM_SUCCESS) {
            throw new PAMException(step + " failed" + (pam == null ? "" : ": " + PAMLibrary.libpam.pam_strerror(pam, result)));
        }
    }
}
