/** Words made to start a sentence: the first letter in capitals, the rest as they are. */
export const capital = (words: string) => words.charAt(0).toUpperCase() + words.slice(1);
