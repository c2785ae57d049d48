// The reference for menuctl's regex evaluator: real java.util.regex, with the device's semantics
// (Pattern.CASE_INSENSITIVE, Matcher.matches()).
//
// Input (stdin), one case per line: base64(UTF-16LE pattern) TAB base64(UTF-16LE message)
// (UTF-16, so that lone surrogates in a reply reach Java unchanged; all base64 below is UTF-16LE)
// Output (stdout), one line per case, in order:
//   ERR TAB base64(description)                        the pattern does not compile
//   OK TAB 1|0 TAB name=base64(value)|name=- ...       matches() verdict and named groups
//                                                      ('-' = the group did not participate)
//   EXC TAB base64(exception class)                    matches() threw
// Group names come from Pattern.namedGroups() (private in Java 17, so run with
// --add-opens java.base/java.util.regex=ALL-UNNAMED).
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

public class RegexOracle {
    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        StringBuilder out = new StringBuilder();
        Method namedGroups = Pattern.class.getDeclaredMethod("namedGroups");
        namedGroups.setAccessible(true);
        String line;
        while ((line = in.readLine()) != null) {
            if (line.isEmpty()) continue;
            String[] parts = line.split("\t", -1);
            String pattern = decode(parts[0]);
            String message = parts.length > 1 ? decode(parts[1]) : "";
            out.append(evaluate(pattern, message, namedGroups)).append('\n');
        }
        System.out.print(out);
        System.out.flush();
    }

    static String evaluate(String pattern, String message, Method namedGroups) throws Exception {
        Pattern p;
        try {
            p = Pattern.compile(pattern, Pattern.CASE_INSENSITIVE);
        } catch (PatternSyntaxException e) {
            return "ERR\t" + encode(e.getDescription() + " near index " + e.getIndex());
        } catch (StackOverflowError e) {
            return "ERR\t" + encode("StackOverflowError while compiling");
        }
        Matcher m = p.matcher(message);
        try {
            if (!m.matches()) return "OK\t0";
        } catch (Throwable t) {
            // Java itself fails at match time (NullPointerException on `[[a]b&&]`, StackOverflowError
            // on deep backtracking): the device would not classify the message either.
            return "EXC\t" + encode(t.getClass().getName());
        }
        @SuppressWarnings("unchecked")
        Map<String, Integer> names = new TreeMap<>((Map<String, Integer>) namedGroups.invoke(p));
        StringBuilder sb = new StringBuilder("OK\t1");
        for (String name : names.keySet()) {
            String v = m.group(name);
            sb.append('\t').append(name).append('=').append(v == null ? "-" : encode(v));
        }
        return sb.toString();
    }

    // UTF-16LE by hand: Java's charset codecs would replace a lone surrogate with U+FFFD.
    static String decode(String b64) {
        byte[] b = Base64.getDecoder().decode(b64);
        char[] cs = new char[b.length / 2];
        for (int i = 0; i < cs.length; i++) cs[i] = (char) ((b[2 * i] & 0xff) | ((b[2 * i + 1] & 0xff) << 8));
        return new String(cs);
    }

    static String encode(String s) {
        byte[] b = new byte[s.length() * 2];
        for (int i = 0; i < s.length(); i++) { b[2 * i] = (byte) s.charAt(i); b[2 * i + 1] = (byte) (s.charAt(i) >> 8); }
        return Base64.getEncoder().encodeToString(b);
    }
}
