/** Short lines for the balloons, captions and sound effects on generated pages. */

export const DIALOGUE = [
  "We're late again!",
  "Did you hear that?",
  "Hold on tight!",
  "It's just the wind... right?",
  "You kept the map?",
  "Not now. Not like this.",
  "Look up. The lanterns are lit.",
  "I told you it would work!",
  "Wait for me!",
  "That's not how the story ends.",
  "Who's there?",
  "Trust me this once.",
  "The tide is turning.",
  "You owe me a sandwich.",
  "Keep your voice down.",
  "Is that... a door?",
  "We can still make the last ferry.",
  "I've drawn this place before.",
  "Run!",
  "Nice catch!",
  "Since when can you fly?",
  "Ugh, my notes are soaked.",
  "One more page. Just one.",
  "Someone left the light on.",
  "It followed us home.",
  "Do you smell rain?",
  "That was close.",
  "Let me handle this.",
  "Are you okay?",
  "I knew you'd come back.",
  "Stay behind me.",
  "The clock stopped at midnight.",
  "Grandma never mentioned this.",
  "Okay, new plan.",
  "We need more ink.",
  "This is the best day ever!",
  "Say that again?",
  "Don't look down.",
  "Tea first. Then adventure.",
  "Where did everyone go?",
] as const;

export const SHOUTS = ["No way!", "Look out!", "Now!", "Got it!", "Move!", "Hey!!", "Again?!", "Jump!"] as const;

export const THOUGHTS = ["Focus...", "Why me?", "Did they notice?", "Almost there...", "Breathe.", "Just like we practised."] as const;

export const WHISPERS = ["Psst... over here.", "Shh, it's asleep.", "Don't wake them.", "Quietly now..."] as const;

export const CAPTIONS = [
  "Meanwhile...",
  "Later that night.",
  "The next morning.",
  "Three days earlier.",
  "Somewhere above the clouds.",
  "At the edge of town.",
  "Back at the workshop.",
  "Nobody saw it coming.",
  "The storm had other plans.",
  "It started with a letter.",
] as const;

export const SOUND_EFFECTS = [
  "WHOOSH",
  "KRAK!",
  "BOOM",
  "FWIP",
  "THUD",
  "ZZZ",
  "TAP TAP",
  "DOKI",
  "SHRAAK",
  "POP!",
  "CLANG",
  "VRMMM",
  "SPLSH",
  "BAM!",
  "SKREE",
  "DON!",
] as const;
