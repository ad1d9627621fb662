import com.fasterxml.jackson.databind.DeserializationFeature;
import java.util.ArrayList;
import java.util.List;
import org.chkobba.client.ApiClient;
import org.chkobba.client.api.RoundsApi;
import org.chkobba.client.model.*;

/**
 * A sealed four-player chkobba round with a rules object, played to the end with the top hint of every turn
 * (the cut included) and its record replayed, by openapi-generator's Java client (native). Run by
 * tests/contract/test_openapi_generator_java.py: java Round HOST:PORT; it prints what it saw, one fact a line.
 */
public class Round {
  public static void main(String[] args) throws Exception {
    ApiClient client = new ApiClient();
    client.setHost(args[0].split(":")[0]);
    client.setPort(Integer.parseInt(args[0].split(":")[1]));
    // The union branches are closed shapes (additionalProperties: false): with unknown properties refused,
    // exactly one branch of each union decodes an answer. The native ApiClient turns that off; turn it on
    // before the API classes take (a copy of) its mapper.
    client.setObjectMapper(client.getObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, true));
    RoundsApi rounds = new RoundsApi(client);

    Rules rules = new Rules(new ChkobbaRules().profile(ChkobbaProfile.CHKOBBA).options(new ChkobbaOptions().target(11)));
    DealRequest deal = new DealRequest().rules(rules).players(4).dealer(0).seed(new Seed("java-openapi-generator")).sealed(true);
    SealedDeal dealt = rounds.dealRound(deal).getSealedDeal();
    System.out.println("views " + dealt.getViews().size() + " " + dealt.getViews().get(0).getPhase().getValue());

    String token = dealt.getStateToken();
    List<String> kinds = new ArrayList<>();
    SealedPlayResponse played = null;
    for (int i = 0; i < 60; i++) {
      HintsResponse hints = rounds.suggestMoves(new HintsRequest(new SealedHintsRequest().stateToken(token).limit(1)));
      MoveInput move = hints.getMoves().get(0).getMove();
      kinds.add(move.getActualInstance().getClass().getSimpleName());
      played = rounds.playRound(new PlayRequest(new SealedPlayRequest().stateToken(token).move(move))).getSealedPlayResponse();
      token = played.getStateToken();
      if (played.getBreakdown() != null) {
        break;
      }
    }
    System.out.println("moves " + String.join(",", kinds));
    SeatView last = played.getViews().get(0);
    System.out.println("phase " + last.getPhase().getValue() + " piles " + last.getPiles().size());

    ReplayResponse replay = rounds.replayRound(played.getRecord());
    System.out.println("replay valid " + replay.getValid() + " complete " + replay.getComplete());
    System.out.println("totals " + totals(played.getBreakdown()) + " replayed " + totals(replay.getBreakdown()));
  }

  private static String totals(List<ScoreLine> lines) {
    List<String> out = new ArrayList<>();
    for (ScoreLine line : lines) {
      out.add(line.getSide() + ":" + line.getTotal());
    }
    return String.join(",", out);
  }
}
