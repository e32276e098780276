import { thread as t, type DemoDiscussion } from "./comments.ts";

/**
 * Discussions under the demo's hub posts, keyed by the post's title. A reply that starts with `@name` answers that
 * person's reply in the same thread (seed/demo-comments.ts).
 */
export const POST_DISCUSSIONS: readonly DemoDiscussion[] = [
  {
    post: "Welcome to Ink & Brushes: read this first",
    threads: [
      t(
        "mika_draws",
        "Thanks for putting this together. The tagging guide alone will save the feed from my 40 blurry phone photos of the same page.",
        ["inkwell_ren", "Blurry phone photos are welcome too, as long as they're tagged [Process] :)"],
      ),
      t(
        "Kestrel_Reads",
        "Is it okay to post here if I mostly use cheap fineliners? Everything here looks very professional.",
        ["inkwell_ren", "Absolutely. Half the best threads here started with a 2-euro pen. Tools are tools."],
        ["nib_and_nova", "Fineliner club checking in. Sakura Pigma 05 forever."],
      ),
      t("halftone_hal", "Could we get a pinned thread for scanner settings? The same question comes up every month."),
    ],
  },
  {
    post: "[Brush pen] Pentel Pocket Brush after six months of daily pages",
    threads: [
      t("tomo_sketches", "Same experience with the cartridges drying out if it sits for a week. Do you store yours tip down?", [
        "mika_draws",
        "Tip up, cap clicked all the way. Since I started doing that it hasn't dried once.",
      ]),
      t(
        "screentone_suki",
        "The line variation in your sample page is unreal. How much pressure are you using for the thin end of the hair strands?",
        ["mika_draws", "Barely any! I rest the side of my hand on the page and flick from the wrist. Takes a week to get used to."],
        ["tomo_sketches", "@mika_draws the wrist flick is the secret, yes. I practised on phone book pages for ages."],
      ),
      t("pagecurl_pete", "Does it hold up on cheap copy paper long term? Mine started feathering after about a month.", [
        "nib_and_nova",
        "That's usually the paper giving up, not the brush. Try 90 gsm laser paper, it's still cheap.",
      ]),
      t(
        "lettering_lou",
        "Bookmarking this for the refill section. I had no idea you could use Platinum Carbon cartridges with an adapter.",
      ),
    ],
  },
  {
    post: "[Nib] Zebra G vs Nikko G for manga line work",
    threads: [
      t("screentone_suki", "Nikko for me: stiffer, so my lines stay even when I'm tired at the end of a page.", [
        "inkwell_ren",
        "That's exactly why it's the one I recommend for backgrounds. Zebra for faces.",
      ]),
      t("tomo_sketches", "How many pages do you get out of one nib before it goes scratchy? I'm at about eight with the Zebra."),
      t("Kestrel_Reads", "Total beginner question: is a G-nib a bad first nib? The shop only had these.", [
        "inkwell_ren",
        "Not bad at all, just unforgiving. Go slow and keep the page turned so you always pull the nib toward you.",
      ]),
    ],
  },
  {
    post: "Help: my brush ink turns grey when it dries",
    threads: [
      t(
        "halftone_hal",
        "Dye-based ink in a refillable pen will always look a bit grey on bright white paper. @inkwell_ren wrote about this in the ink thread.",
        ["pagecurl_pete", "Oh! I'd been blaming the pen the whole time. Thanks."],
      ),
      t(
        "chromatic_ada",
        "If you scan the pages anyway, a levels adjustment fixes most of it. If it's for originals you want to sell, switch to pigment ink.",
      ),
      t(
        "inkwell_ren",
        "Posted a longer answer as its own thread so it's easier to find later. Short version: pigment or shellac ink, and let it dry fully.",
        ["pagecurl_pete", "Read it. Ordered a bottle of Sailor Kiwaguro, will report back."],
        ["pagecurl_pete", "Update: it's black. Actually black. Thank you all!"],
      ),
    ],
  },
  {
    post: "Left-handed inking tips?",
    threads: [
      t(
        "lettering_lou",
        "Fellow leftie! Ink from the top right to the bottom left, and keep a scrap sheet under your hand. It changed everything for me.",
        ["dotgrain_dee", "Top right first, I would never have thought of that. Trying it tonight."],
      ),
      t("riverink_omar", "Faster-drying ink helps a lot. And a hair dryer on cool, if your housemates don't mind the noise."),
      t(
        "sora_paints",
        "Have you tried rotating the page 90 degrees for long horizontal lines? I'm right-handed but it works for everyone.",
        ["dotgrain_dee", "@sora_paints yes! Feels silly but the lines are so much straighter."],
      ),
      t("Kestrel_Reads", "Not an inker yet but I'm left-handed too, so I'm taking notes on all of this."),
    ],
  },
  {
    post: "Monthly tool swap thread",
    threads: [
      t(
        "mika_draws",
        "Offering: a Kuretake No. 8 brush pen, used twice. It's a lovely pen, I just don't get along with it. Looking for: any Nikko G nibs.",
        ["screentone_suki", "I have a box of Nikko nibs I'll never finish. Sending you a message!"],
      ),
      t("tomo_sketches", "Looking for someone to lend me a light pad for a weekend before I decide if I want one."),
      t("pagecurl_pete", "Giving away: half a bottle of grey-drying dye ink (you know the one). Free to anyone who uses it for washes.", [
        "chromatic_ada",
        "Grey washes are exactly what I need it for. Yes please!",
      ]),
      t(
        "nib_and_nova",
        "Offering a set of Copic multiliners in sizes 0.03 to 0.5. All still wet. Looking for: a good eraser recommendation, honestly.",
      ),
      t("zine_queen_bea", "Anyone have a long-reach stapler I could borrow for zine week? I'll return it with a free zine."),
      t("lettering_lou", "Swapping: Ames lettering guide (I finally went digital) for anything screentone-related."),
      t(
        "halftone_hal",
        "Looking for: old screentone sheets, any pattern. Even half-used ones. I'm building a scan library. @screentone_suki, any leftovers?",
      ),
      t("sora_paints", "I have two Pentel Aquash water brushes, medium and large. I only ever use the small one. Free to a good home.", [
        "paperlantern_li",
        "Would love the medium one for the weekly challenge! I keep using a cup of water like a caveman.",
      ]),
      t("gutterspace", "Giving away a drafting board with a parallel ruler. Pick-up only, it weighs as much as a small fridge."),
      t("riverink_omar", "Looking for a cheap secondhand scanner that does 600 dpi. The one at the library closes at five."),
      t("bluepencil_june", "Offering: a box of non-photo blue pencils, about 30 of them. I over-ordered. Very over-ordered."),
      t("dotgrain_dee", "Lefty-friendly fast-drying ink, anyone? Will trade my perfectly nice but smudgy Higgins bottle."),
      t("screentone_suki", "Trading: a Deleter tone knife and spare blades, for a good dip pen holder with a cork grip."),
      t(
        "chromatic_ada",
        "Anyone want a Prismacolor set that's missing all the skin tones? Great for skies and seas, terrible for people.",
        ["sora_paints", "That sounds like the perfect Starfall Shepherds set, to be honest."],
      ),
      t("quiet_quill", "Looking for: a ruler with a bevelled edge that doesn't smear. Mine is from school and it shows."),
      t("panelpusher", "Offering an old Wacom Intuos, works fine, the pen nibs are worn. Good first tablet."),
      t("Kestrel_Reads", "I don't have anything to swap yet, but this thread is how I learned what half these tools are."),
      t("paperlantern_li", "Giving away a stack of A4 Bristol board, slightly bent at one corner. About 40 sheets."),
      t("demo", "Offering: a Zebra G nib sampler with three left. Looking for: anyone's favourite white gel pen for highlights."),
      t("inkwell_ren", "Reminder: swaps are between you. Post when a swap is done so others know it's gone!"),
      t("tomo_sketches", "Update: borrowed the light pad, bought my own the next day. Thanks, internet strangers."),
      t("mika_draws", "Swap with screentone_suki done, the nibs arrived with a little sketch on the envelope. This community is the best."),
      t("halftone_hal", "Got three packs of old tone from a shop that was closing. Scan library is growing!"),
    ],
  },
  {
    post: "Silhouette test: can you tell your cast apart in solid black?",
    threads: [
      t(
        "tomo_sketches",
        "Did this with Saltwind's cast and two of my students were identical blobs. Gave one a huge scarf. Problem solved.",
        ["demo", "The huge scarf is the classic fix! It also gives you something to animate in the wind."],
      ),
      t(
        "nib_and_nova",
        "This is also a great test for costume design. If the outfit doesn't change the silhouette, it might as well be a colour swap.",
      ),
      t("Kestrel_Reads", "As a reader: yes, please do this. I can tell Suzu apart from anyone in The Moth Courier by her hat alone.", [
        "demo",
        "That hat took eleven tries, so this makes me very happy.",
      ]),
    ],
  },
  {
    post: "Colour-coding a cast",
    threads: [
      t(
        "chromatic_ada",
        "Love this. One thing to add: keep the signature colours at different values too, so they survive greyscale.",
        ["demo", "Good point, I should add a greyscale check to the post. @chromatic_ada mind if I quote you?"],
        ["chromatic_ada", "Go for it!"],
      ),
      t("sora_paints", "For a black-and-white series I give each character a different screentone instead. Same idea."),
    ],
  },
  {
    post: "Club rules and the daily sketch thread format",
    threads: [
      t("screentone_suki", "The one-post-per-week format is much better than the old daily threads. The feed is readable again!"),
      t("quiet_quill", "Is it okay to post the same sketch again with improvements, or should that go in the same week's post?", [
        "demo",
        "Same week's post, as an edit or a comment. That way people can see the before and after.",
      ]),
    ],
  },
  {
    post: "Thumbnailing a chapter on index cards",
    threads: [
      t(
        "mika_draws",
        "I stole this for Kessel Bay and now my desk is covered in index cards. Being able to shuffle scenes around is so good.",
        ["demo", "Wait until you start colour-coding the cards by location. There's no going back."],
      ),
      t(
        "gutterspace",
        "Do you thumbnail the page turns separately? For print I always mark which cards fall on a left-hand page.",
        ["demo", "Yes, there's a little dot on the corner of every card that ends a spread."],
        ["mika_draws", "@demo stealing the little dot too."],
      ),
      t("Kestrel_Reads", "Reading this made me appreciate the reveal at the end of Moth Courier chapter 2 even more."),
      t(
        "panelpusher",
        "Any chance you'd share a photo of a full chapter laid out? Would be great to see the whole thing at once.",
        ["tomo_sketches", "Seconding this!"],
        ["demo", "I'll post one with the next chapter. It takes up the whole floor."],
      ),
    ],
  },
  {
    post: "Pose references: photo, 3D model or mirror?",
    threads: [
      t("gutterspace", "3D models for anything with perspective, mirror for hands and faces. Photos when I need clothes to fold right."),
      t("paperlantern_li", "The mirror is underrated. Also free.", [
        "demo",
        "And it's always available at 2am, unlike a friend who will pose for you.",
      ]),
      t("screentone_suki", "Whatever you use, draw from it for a minute and then put it away. Otherwise everything gets stiff."),
    ],
  },
  {
    post: "First sketch post! Be gentle",
    threads: [
      t(
        "screentone_suki",
        "Welcome back to drawing! The ferry sketch has a really nice sense of motion. Don't apologise for your hands, nobody can draw hands.",
        ["Kestrel_Reads", "Thank you, this made my day."],
      ),
      t("demo", "Ten years off and this is where you're starting? That's a great start. See you in the weekly thread!"),
      t("paperlantern_li", "I posted a thread about what helped me with hands, if it's useful. Mitten shape first!", [
        "Kestrel_Reads",
        "@paperlantern_li reading it now, the thumb trick is wild.",
      ]),
      t("tomo_sketches", "Gesture is already there. The rest is just miles on the pencil."),
    ],
  },
  {
    post: "Critique request: my first full page",
    threads: [
      t(
        "bluepencil_june",
        "Thanks for using the template! Pacing: panel 3 and 4 show the same moment. Cutting one would make the door opening feel faster.",
        ["Kestrel_Reads", "Oh, that makes sense. I think I was scared of losing the cat."],
        ["bluepencil_june", "@Kestrel_Reads keep the cat. Always keep the cat."],
      ),
      t(
        "mika_draws",
        "The last panel is lovely. I'd give it more room: let it take the full width of the tier so it feels like an ending.",
      ),
      t(
        "lettering_lou",
        "Small lettering note: the balloon in panel 2 crosses the gutter, which pulls the eye out of the panel early. @lettering_lou has a post on exactly this.",
      ),
    ],
  },
  {
    post: "Fan art: Suzu and the moths",
    threads: [
      t("demo", "I have been staring at this for ten minutes. The light on the moths' wings! Thank you so much for making this.", [
        "dotgrain_dee",
        "Thank you for making Suzu! Chapter 4 is why I had to paint this.",
      ]),
      t("sora_paints", "The glow is so soft. What did you use for the moths, a glow layer or painted by hand?"),
      t("Kestrel_Reads", "@demo you should use this as a cover for a volume one someday, I'd buy it."),
    ],
  },
  {
    post: "Balloon placement 101",
    threads: [
      t(
        "tomo_sketches",
        "The rule about never pointing a tail at the wrong character's mouth sounds obvious until you check your old pages...",
        ["lettering_lou", "Everyone's old pages. Mine included."],
      ),
      t("Kestrel_Reads", "This explains why some pages feel hard to read and I could never say why."),
    ],
  },
  {
    post: "Slicing tall pages for vertical scroll readers",
    threads: [
      t(
        "riverink_omar",
        "Worked first time on my strips. I added a check so it never cuts through a speech balloon: it looks for a row of pure white first.",
        ["panelpusher", "Ooh, that's smart. Mind if I add that to the post with credit?"],
      ),
      t("gutterspace", "How big do you make the slices? Some readers seem to struggle with anything over 1600 px tall."),
    ],
  },
  {
    post: 'Week 15 prompt: "The last train"',
    threads: [
      t("riverink_omar", "This prompt was made for me. The last ferry counts as a train, right?", ["screentone_suki", "Ferries count!"]),
      t("paperlantern_li", "Posted mine: a night bus. Buses count too, I decided. Also @riverink_omar, I want to see your ferry!"),
    ],
  },
  {
    post: "Flats first: why every colourist starts with flat colours",
    threads: [
      t("sora_paints", "Flats are so boring and so worth it. I put on a podcast and do a whole chapter in one go.", [
        "chromatic_ada",
        "Flatting podcast time is sacred.",
      ]),
      t("panelpusher", "Has anyone tried the automatic flatting tools? Are they good enough yet?"),
    ],
  },
  {
    post: "Drawing water without losing your mind",
    threads: [
      t("mika_draws", "The ferry shortcut is exactly what I needed for the harbour scenes in Kessel Bay. Thank you!", [
        "riverink_omar",
        "Can't wait to see your harbour. Those lanterns on the water are going to look great.",
      ]),
      t("halftone_hal", "Horizontal lines, broken up, darker near the object. I repeat this to myself every time."),
    ],
  },
  {
    post: "Folding an 8-page mini zine from one sheet",
    threads: [
      t("Kestrel_Reads", "Made one during my lunch break. It's terrible and I love it.", [
        "zine_queen_bea",
        "Terrible and loved is the whole point of zines. Welcome!",
      ]),
      t("lettering_lou", "The template with the page numbers upside down is such a good idea. I always get them wrong."),
    ],
  },
  {
    post: "The page turn is your best special effect",
    threads: [
      t(
        "gutterspace",
        "And on the web, the scroll does the same job if you leave a big gap before the reveal. Tested it on Paper Tigers. @demo does this with the moths in every chapter.",
        ["mika_draws", "Yes! A tall empty gutter is the webtoon page turn."],
      ),
      t("demo", "The lantern reveal in Kessel Bay chapter 9 is the best example of this I know."),
    ],
  },
  {
    post: "Expression sheet for Aoi",
    threads: [
      t("screentone_suki", "Smug Aoi is my favourite. Please use it on a page soon."),
      t("nib_and_nova", "The devastated one made me sad and I don't even know why she's devastated yet.", [
        "tomo_sketches",
        "You'll find out in chapter 4. Sorry in advance.",
      ]),
    ],
  },
];
