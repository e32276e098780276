import { gone, thread as t, type DemoDiscussion } from "./comments.ts";

/** Discussions under the demo's chapters, keyed by series and chapter number. */
export const CHAPTER_DISCUSSIONS: readonly DemoDiscussion[] = [
  {
    series: "Lanterns Over Kessel Bay",
    chapter: 1,
    threads: [
      t("inkwell_ren", "That first page of the harbour at dusk. I could hear the water. Following!", [
        "mika_draws",
        "Thank you! That page was the first thing I drew for the whole series.",
      ]),
      t("sora_paints", "The lantern drifting against the wind is such a good hook. Who sends a letter forty years late?"),
      t(
        "Kestrel_Reads",
        "Found this through the front page and read everything in one sitting. Starting over from here to catch what I missed.",
        ["halftone_hal", "Same thing happened to me. The second read is even better once you know about the keeper."],
      ),
    ],
  },
  {
    series: "Lanterns Over Kessel Bay",
    chapter: 5,
    threads: [
      t("tomo_sketches", "Did anyone else count the steps? There are exactly 112 drawn on the spiral page. The dedication!", [
        "mika_draws",
        "You're the first person to notice. I had a checklist taped to the desk.",
      ]),
      t("bluepencil_june", "The drawing scratched into the stone is the same shape as the map in chapter 2, right? RIGHT?"),
    ],
  },
  {
    series: "Lanterns Over Kessel Bay",
    chapter: 12,
    threads: [
      t("inkwell_ren", "What a finale. Mika lighting her own lantern on the last page, with the whole harbour watching: I got chills.", [
        "mika_draws",
        "Thank you for reading from the very first chapter. It means a lot.",
      ]),
      t("sora_paints", "The colours on the last spread! The orange of the lanterns against that deep blue sky is perfect."),
      t(
        "Kestrel_Reads",
        "I was not ready for Oren's speech. I had to put my phone down for a minute.",
        ["bluepencil_june", "Same. The quiet panel after it, with just the tide, is what got me."],
        ["Kestrel_Reads", "@bluepencil_june the silent panel! Nobody talks and it says everything."],
      ),
      t("tomo_sketches", "Season one finished, and I'm already impatient for season two. Take your time though, really."),
      t("halftone_hal", "The lettering on the festival banners is lovely. Hand lettered or a font?"),
      t("chromatic_ada", "I want to frame the page where the lanterns go up. Would you ever sell prints?", [
        "mika_draws",
        "Prints are in the works! I'll post in the Fan Art Gallery when they're ready.",
      ]),
      t("riverink_omar", "The rowing boat from chapter 10 tied up at the pier in the background. Little details like that everywhere."),
      t("screentone_suki", "The panel with all the letters being read at once, overlapping speech balloons: so clever."),
      t("pagecurl_pete", "I've been following since chapter 3 and this was worth every wait. Thank you!"),
      t(
        "paperlantern_li",
        "My username is a coincidence, I swear. Mostly. This series is why I started drawing lanterns in the weekly challenge.",
      ),
      t(
        "gutterspace",
        "The pacing of the last eight pages is a masterclass. Two wide panels, then the full-page lantern. Bookmarking for Panel Flow Workshop.",
        ["mika_draws", "@gutterspace please do, I learned half of it from your camera angles post!"],
      ),
      t("lettering_lou", "Small typo on page 6, second balloon: 'their' should be 'there'. Otherwise perfect, and I mean perfect."),
      t("dotgrain_dee", "Fan art incoming. I can't not paint that harbour."),
      t("zine_queen_bea", "Would you consider a printed zine version of season one? I'd help with the layout."),
      t("nib_and_nova", "The harbourmaster finally smiling in the crowd. I didn't know I needed that."),
      t("quiet_quill", "Just finished the whole series in one evening. No regrets, except about my sleep."),
      t("demo", "Suzu would deliver every one of these letters. Congratulations on season one, @mika_draws!"),
      t("panelpusher", "The page loads look great on my phone too, and the vertical reading works beautifully for this chapter."),
      t(
        "Kestrel_Reads",
        "Theory: the last lantern that drifts off the page is from the keeper. Someone tell me I'm right.",
        ["tomo_sketches", "I thought exactly the same!"],
        ["mika_draws", "I'm not saying anything. Season two."],
      ),
      t("sora_paints", "Coming back to say I re-read it and cried again. The lanterns reflecting in the water, every single one."),
      t("halftone_hal", "Answering my own question: it's hand lettered! Mika told me in the Lettering Lab."),
      t("bluepencil_june", "This will be my example in every critique thread about endings from now on."),
      t("inkwell_ren", "Added this chapter to the Ink & Brushes 'best of the year' list. No debate needed."),
      t("chromatic_ada", "Colour script for this chapter, please. I need to know how you planned that sunset."),
    ],
  },
  {
    series: "The Moth Courier",
    chapter: 1,
    threads: [
      t("screentone_suki", "The screentone on the night sky is gorgeous. Is that a custom tone or one of the standard dot patterns?", [
        "demo",
        "A standard 60-line dot, layered twice at an angle. The moiré was happy accident number one.",
      ]),
      t("inkwell_ren", "A courier who only works at night, guided by moths. How has nobody done this before?"),
      t("Kestrel_Reads", "'Goes wrong in the most polite way possible' is exactly right. Suzu apologising to the window!", [
        "paperlantern_li",
        "The window apologising back was the best panel.",
      ]),
    ],
  },
  {
    series: "The Moth Courier",
    chapter: 2,
    threads: [
      t("mika_draws", "A moth that refuses to fly. I need to know where this is going immediately."),
      t("halftone_hal", "Your rain effect with white ink over the tone is beautiful. How long did that page take?", [
        "demo",
        "Two evenings, most of it spent on the rain. I regret nothing.",
      ]),
    ],
  },
  {
    series: "The Moth Courier",
    chapter: 4,
    threads: [
      t("dotgrain_dee", "The light in the lighthouse window on the last page. I had to paint it (posted in the Fan Art Gallery).", [
        "demo",
        "I saw it! It's on my wall now. Well, on my desktop.",
      ]),
      t("riverink_omar", "An old route and an older debt. The way the rooftops turn into the sea was lovely."),
      t(
        "mika_draws",
        "Wait, is this the same lighthouse as Kessel Bay's? Crossover when?",
        ["demo", "@mika_draws the moths go everywhere, so... maybe?"],
        ["Kestrel_Reads", "Please. Please do a crossover."],
      ),
    ],
  },
  {
    series: "The Moth Courier",
    chapter: 5,
    threads: [
      t(
        "screentone_suki",
        "The sunrise done entirely in screentone gradients is the best thing you've drawn. The moths falling asleep on the rooftops!",
        ["demo", "Thank you! I cut that gradient by hand three times before it looked like light."],
      ),
      t("tomo_sketches", "Suzu running out of time while everyone else is waking up: the tension in those small panels!"),
      t(
        "Kestrel_Reads",
        "Who was the letter for? I have theories. Many theories.",
        ["halftone_hal", "My guess: it's for the courier before Suzu."],
        ["Kestrel_Reads", "@halftone_hal oh no. Oh no, that makes sense."],
      ),
      t("pagecurl_pete", "The last page's silence, after so many sound effects in the chase. Brilliant."),
      t("inkwell_ren", "Your line work gets more confident every chapter. The rooftop chase had me turning pages very fast."),
      t("mika_draws", "The moths tucking themselves into the eaves one by one as the sky gets lighter. I want a whole page of just that."),
      t("lettering_lou", "The way the balloons get smaller and more cramped as dawn gets closer is such a good lettering choice.", [
        "demo",
        "You noticed! I shrank them a little on every page. @lettering_lou your balloon post was the inspiration.",
      ]),
      t("sora_paints", "Those rooftops in the morning haze. You can almost smell the bakeries opening."),
      t("gutterspace", "The chase is staged so clearly. I always knew where Suzu was, even at that speed. Studying this one."),
      t("zine_queen_bea", "I would buy a printed volume of The Moth Courier in a heartbeat. Riso, two colours, black and moth-wing gold."),
      t("dotgrain_dee", "Another painting is coming, I'm sorry, I can't help it. That last sunrise panel!"),
      t(
        "nib_and_nova",
        "The baker waving at Suzu on page 3 is the same baker from chapter 1, right? Love a recurring background character.",
      ),
      t(
        "bluepencil_june",
        "Pacing note, as a fan and not a critic: the three silent panels before the letter is delivered are perfect. Don't change a thing.",
      ),
      t("chromatic_ada", "Even without colour this chapter feels warm at the end. The tone values do all the work."),
      t("paperlantern_li", "I didn't breathe for the last four pages.", ["quiet_quill", "Same. I read it on the bus and missed my stop."]),
      t("riverink_omar", "A courier racing the sunrise is such a simple idea and it works so well. Great ending to the arc."),
      t("quiet_quill", "The moth that finally flies at the end! I cheered, out loud, in a library."),
      t("panelpusher", "Reading this on a phone, the tall panel of the tower at dawn is spectacular."),
      t("tomo_sketches", "The expressions in the last scene. Suzu's tired smile is everything."),
      t("mika_draws", "Can Suzu deliver a lantern to Kessel Bay one day? Asking for a harbour town."),
      t("halftone_hal", "The white-on-black lettering for the moths' little voices is such a nice touch."),
    ],
  },
  {
    series: "Ghostlight Diner",
    chapter: 1,
    threads: [
      t("zine_queen_bea", "Table four has been dead since 1962 is one of the best first lines I've read this year."),
      t("nib_and_nova", "The diner's neon sign buzzing in every panel, even in the background: so atmospheric.", [
        "demo",
        "I made the sign the first thing I drew each page, so I'd never forget it.",
      ]),
    ],
  },
  {
    series: "Ghostlight Diner",
    chapter: 2,
    threads: [
      t("sora_paints", "I cried over a ghost who wants cherry pie. That's where I am in life.", [
        "demo",
        "That's the right reaction, and I'm sorry.",
      ]),
      t("chromatic_ada", "The warm colours inside the diner against the blue-grey of the ghost: perfect use of temperature."),
      t("quiet_quill", "Dee's cooking face when the pie comes out wrong the third time. I know that face."),
    ],
  },
  {
    series: "Ghostlight Diner",
    chapter: 3,
    threads: [
      t("pagecurl_pete", "The regulars voting on the sale with pie forks raised. I love these people.", [
        "demo",
        "They all have backstories. Maybe one day they'll get their own chapters.",
      ]),
      gone(
        t(
          "gutterspace",
          "Hot take: the diner should be sold. Change is good for stories.",
          ["bluepencil_june", "Respectfully: no."],
          ["Kestrel_Reads", "Table four would never allow it."],
        ),
      ),
      t(
        "lettering_lou",
        "The 'LAST CALL' sign in the final panel, with one letter flickering. Whoever wrote that SFX knows what they're doing.",
        ["halftone_hal", "@lettering_lou you wrote the SFX post, you would notice!"],
      ),
    ],
  },
  {
    series: "Saltwind Academy",
    chapter: 1,
    threads: [
      t("screentone_suki", "The rival with perfect hair. Even the wind respects his hair.", [
        "tomo_sketches",
        "The hair has its own character sheet. It's that important.",
      ]),
      t("mika_draws", "Aoi's laundry flying off into the sea on the last page made me laugh out loud."),
    ],
  },
  {
    series: "Saltwind Academy",
    chapter: 4,
    threads: [
      t("nib_and_nova", "So this is why she looked devastated on the expression sheet. I wasn't ready."),
      t("Kestrel_Reads", "The whole island drifting and only the worst students noticing is such a fun premise for a chapter.", [
        "tomo_sketches",
        "The worst students are always the ones looking out of the window.",
      ]),
    ],
  },
  {
    series: "Paper Tigers of Route 9",
    chapter: 3,
    threads: [
      t("panelpusher", "A paper tiger in the rain is the most stressful thing I've read. Crease Lightning is a perfect title.", [
        "gutterspace",
        "I folded a real one and left it out in the rain for reference. RIP.",
      ]),
      t("halftone_hal", "The speed lines in the race are incredible. Ruler and pin?"),
    ],
  },
  {
    series: "Starfall Shepherds",
    chapter: 1,
    threads: [
      t("chromatic_ada", "The limited palette really pays off here. Three colours and the whole night sky."),
      t("paperlantern_li", "A shepherd who herds fallen stars. This is the gentlest premise and I'm fully invested.", [
        "sora_paints",
        "Thank you! The stars get chattier from chapter 2.",
      ]),
    ],
  },
  {
    series: "Neon Tanuki",
    chapter: 1,
    threads: [
      t("tomo_sketches", "A vending machine with feelings. The screentone glow on the machine is so good.", [
        "screentone_suki",
        "It took me a week to make the glow tone. Worth it.",
      ]),
      t("demo", "The tanuki's disguise slipping every time the lights flicker is such a good running gag."),
    ],
  },
  {
    series: "The Last Ferry to Aubade",
    chapter: 2,
    threads: [
      t("mika_draws", "The radio playing songs from the island halfway across. Goosebumps.", [
        "riverink_omar",
        "Thank you! More island radio next chapter.",
      ]),
      t("Kestrel_Reads", "I love a quiet comic. Everyone on that ferry has a story and I want them all."),
    ],
  },
  {
    series: "Hollow Crown Knights",
    chapter: 1,
    threads: [
      t("gutterspace", "Knights guarding a kingdom that doesn't exist any more. What a setup.", [
        "quiet_quill",
        "Thank you! The horses are still bad, but I'm learning.",
      ]),
    ],
  },
  {
    series: "Clockwork Orchard",
    chapter: 2,
    threads: [t("sora_paints", "The ticking trees in the fog are so eerie. Seven minutes slow is a great mystery.")],
  },
];
